"""`make fuzz`: stateful testing of the real firmware process on the emulated board.

A rule-based state machine (hypothesis.stateful) drives one emulated cabinet with random sequences
of what the outside world does to it, and after every step holds what it observes to invariants
computed from what the peers saw, never from the firmware's own arithmetic. Four parts, each
readable on its own:

- `sim/fuzz/inputs.py` and `sim/fuzz/games.py`: what the rules draw from (codes, kinds, commands,
  the shipped games and the sets a cabinet offers);
- `sim/fuzz/rules.py`, `rules_vlt.py`, `rules_service.py`: the rules (the inputs, one rule per kind of
  input), put together with the check after every step (`checks.py`) in `sim/fuzz/machine.py`;
- `sim/fuzz/oracle.py`: the test's own model (`Truth`) and the invariants, functions of
  observations (tests/host/test_fuzz_oracle.py runs them without a firmware);
- `sim/fuzz/campaign.py` with `sim/fuzz/record.py` and `sim/fuzz/sequence_file.py`: the campaign
  runner (seeds, sessions, budget, shrinking, replay files, progress bar, summary).

    python -m sim.fuzz --steps 20000 --seed 7      # campaign: progress bar, then a JSON summary
    python -m sim.fuzz --replay FILE               # play a (shrunk) failing sequence again
"""
