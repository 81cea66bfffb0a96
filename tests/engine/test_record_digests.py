"""Same seed + same deterministic bots → byte-identical record, across refactors: every
preset's sample-bot games hash to the digests main recorded (``scripts/record-digests``)."""

from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent.parent / "scripts" / "record-digests"


def _load_script():
    loader = SourceFileLoader("record_digests", str(SCRIPT))
    spec = spec_from_loader(loader.name, loader)
    assert spec is not None
    module = module_from_spec(spec)
    loader.exec_module(module)
    return module


digests = _load_script()
EXPECTED = {
    tuple(line.split()[:3]): line.split()[3]
    for line in digests.DIGESTS.read_text().splitlines()
    if line.strip()
}


def test_the_stored_digests_cover_every_preset_and_game():
    assert {key[0] for key in EXPECTED} == set(digests.PRESETS)
    assert len(EXPECTED) == len(digests.PRESETS) * len(digests.GAMES)


@pytest.mark.parametrize("preset", list(digests.PRESETS))
def test_every_record_is_byte_identical_to_mains(preset):
    for seed, limit in digests.GAMES:
        got = digests.digest(preset, seed, limit)
        assert got == EXPECTED[(preset, str(seed), str(limit))], (
            f"{preset} seed {seed}: the record changed; if on purpose, remake "
            "tests/records/digests.txt with scripts/record-digests --write and say why"
        )
