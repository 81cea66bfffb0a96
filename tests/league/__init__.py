"""Tests of league."""
