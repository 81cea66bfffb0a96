"""hegemon's tests, one folder per package; tests/helpers/ is what they share."""
