"""python -m sim.fuzz: the campaign runner (sim/fuzz/campaign.py)."""
import sys

from sim.fuzz.campaign import main

sys.exit(main())
