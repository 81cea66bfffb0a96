"""The legal answers on the wire (issue 34 item 4): ``DecideRequest.legal``, sent only to a bot
that asked in its Hello, lists exactly what the engine accepts, in every edition; and what
``bot.proto`` says a card set is agrees with the engine for every ``card_values`` rule (the
Risiko! Master sets included)."""

from __future__ import annotations

import itertools
import random
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from hegemon.referee import Game, make_rules
from hegemon.referee.actions import Attack, Fortify, FortifyAlly, Pass, Place, ReinforceAlly, Trade
from hegemon.referee.arbiter import Ask
from hegemon.referee.cards import is_set
from hegemon.referee.decisions import Kind, Kinds
from hegemon.referee.policies import attack_happy_action, random_action
from hegemon.referee.rules import OPTIONS, PRESETS
from hegemon.referee.runner.link import BotLink
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.timecontrol import TimeControl
from hegemon.referee.view import view_for
from hegemon.referee.wire import bot_pb2 as pb
from hegemon.referee.wire.legal import legal_answers
from tests.helpers.env import players_of

PROTO = Path(__file__).resolve().parents[2] / "protos" / "hegemon" / "v1" / "bot.proto"
DECISIONS = 400  # decisions checked per preset: every kind of each edition comes up


def _expanded(answers: pb.LegalAnswers) -> tuple[set, set, set]:
    attacks = {
        (a.source, a.target, d)
        for a in answers.attacks
        for d in range(a.least_dice, a.most_dice + 1)
    }
    moves = {(m.source, m.target, n) for m in answers.moves for n in range(1, m.most_armies + 1)}
    return {tuple(s.cards) for s in answers.sets}, attacks, moves


def _check(game: Game) -> Kind:
    decision = game.pending
    assert decision is not None
    view = view_for(game, decision.player)
    answers = legal_answers(view, decision)
    sets, attacks, moves = _expanded(answers)
    assert answers.pass_allowed == game.is_legal(Pass())
    kind = decision.kind
    # trades: every three cards of the hand the engine (the judge, not its lister) accepts
    accepted = {
        tuple(sorted(c))
        for c in itertools.combinations(view.hand, 3)
        if kind is Kinds.TRADE and game.is_legal(Trade((c[0], c[1], c[2])))
    }
    assert sets == accepted
    listed = game.legal_actions()
    assert attacks == {(a.source, a.target, a.dice) for a in listed if isinstance(a, Attack)}
    assert moves == {
        (a.source, a.target, a.armies) for a in listed if isinstance(a, (Fortify, FortifyAlly))
    }
    rules = game.rules
    for option in answers.attacks:  # bot.proto's words on ATTACK for Risiko! Master's dice
        least = 1
        if rules.attacker_dice == "at_least_defender":
            least = min(rules.defender_most_dice, game.armies[option.target])
        assert option.least_dice == least
    if kind in (Kinds.PLACE, Kinds.REINFORCE_ALLY):
        cls = Place if kind is Kinds.PLACE else ReinforceAlly
        takes = {t for t in range(game.board.size) if game.is_legal(cls(((t, decision.armies),)))}
        assert set(answers.territories) == takes
    return kind


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_listed_answers_are_exactly_the_engines(preset):
    game = Game(make_rules(preset, {"turn_limit": 40}), players_of(preset), seed=3)
    rng = random.Random(3)
    kinds: Counter[Kind] = Counter()
    for _ in range(DECISIONS):
        if game.over:
            break
        kind = _check(game)
        kinds[kind] += 1
        play = random_action if kind is Kinds.CAPITAL else attack_happy_action  # it has none
        game.apply(play(game, rng))
    assert kinds[Kinds.ATTACK] and kinds[Kinds.PLACE], kinds


# ------------------------------------------------------------------ only when asked for
def _request(opted_in: bool) -> pb.DecideRequest:
    link = BotLink(BotCommand("x", (sys.executable, "-c", "")), TimeControl())
    link.hello = pb.HelloReply(name="x", legal_answers=opted_in)
    game = Game(make_rules("classic"), 3, seed=1)
    assert game.pending is not None
    view = view_for(game, game.pending.player)
    request: pb.DecideRequest = link.decide_request(Ask("g", view, [], "", 0, 60.0, 2.0))
    return request


def test_legal_answers_go_only_to_a_bot_that_asked():
    assert not _request(False).HasField("legal")  # the default: an older bot sees nothing new
    asked = _request(True)
    assert asked.HasField("legal")
    assert not asked.legal.pass_allowed  # CLAIM at the start: one of Decision.territories


# ------------------------------------------------------------------ what bot.proto says a set is
def _wild_comment() -> str:
    text = PROTO.read_text(encoding="utf-8")
    found = re.search(r"((?:\s*//[^\n]*\n)+)\s*INSIGNIA_WILD = 4;", text)
    assert found, "bot.proto has no comment on INSIGNIA_WILD"
    return " ".join(line.strip().lstrip("/").strip() for line in found.group(1).splitlines())


# Each card_values rule in the words bot.proto gives it, as a test of three insignia (W: wild).
SAID = {
    # "three cards of one insignia, or one of each of the three; a wild card stands for any
    # insignia, so one wild card and any two cards are a set, and two wild cards and any card"
    "every edition but Risiko! Master": lambda plain, wild: (
        (len(set(plain)) in (1, 3) and wild == 0) or wild >= 1
    ),
    # "only ... three of one insignia, one of each of the three, or one wild card and two of
    # one insignia ... NOT a set; two or three wild cards are NOT a set"
    "master (Risiko! Master)": lambda plain, wild: (
        (wild == 0 and len(set(plain)) in (1, 3)) or (wild == 1 and len(set(plain)) == 1)
    ),
}
WORDS = {
    "every edition but Risiko! Master": [
        "three cards of one insignia, or one of each of the three",
        "one wild card and any two cards are a set",
        "two wild cards and any card are a set",
    ],
    "master (Risiko! Master)": [
        "three of one insignia, one of each of the three, or one wild card and two of one insignia",
        "One wild card with two different insignia (e.g. infantry, wild, cavalry) is NOT a set",
        "two or three wild cards are NOT a set",
    ],
}


def test_bot_proto_names_every_card_values_rule_and_says_it_as_the_test_reads_it():
    comment = _wild_comment()
    choices = OPTIONS["card_values"].choices or ()
    for choice in choices:
        assert re.search(rf"\b{choice}\b", comment), f"bot.proto says nothing of {choice!r}"
    for said, words in WORDS.items():
        assert said in comment
        for phrase in words:
            assert phrase in comment, phrase


@pytest.mark.parametrize("card_values", ["escalating", "golden_cavalry", "insignia", "master"])
def test_the_proto_s_set_rule_is_the_engines_for_every_three_cards(card_values):
    said = SAID["master (Risiko! Master)" if card_values == "master" else next(iter(SAID))]
    insignia = ("infantry", "cavalry", "artillery", "wild")
    for three in itertools.combinations_with_replacement(insignia, 3):
        plain = [x for x in three if x != "wild"]
        expected = said(plain, 3 - len(plain))
        assert is_set(list(three), card_values) == expected, three
    # the case: infantry, wild, cavalry is no set in Risiko! Master, a set elsewhere
    assert is_set(["infantry", "wild", "cavalry"], card_values) == (card_values != "master")
