# Games: math models (data) and their engines. Imports nothing of ours but rng's scaling API.
from games.reels import load, ReelGame, Outcome  # noqa: F401
