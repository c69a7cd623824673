# Games: math models (data) and their engines. Imports nothing of ours but rng's scaling API and
# rng.crypto (the canonical hashing a certificate binds).
#
# Imported on first use, in the function that needs them, not at the top of a module: each stays
# off the heap until then (a frozen module's code is in flash; what an import costs is its objects).
# tests/host/test_lazy_imports.py keeps this table true: every import in a function of this room
# names a module listed here, and a module of this room imports one at its top only if it is listed
# too (it is then lazy itself).
#   import games.poker       a video poker model only (reels.load)
#   import games.poker_text  a poker paytable's text: the console's `paytable`, imported late
#   import games.keno_text   a keno paytable's text: the console's `paytable`, imported late
#   import games.text        a reel paytable's text: the console's `paytable`, imported late
#   import games.poker_cert  a poker game's certificate check only (power-up)
#   import games.keno_check  a keno game's certificate check only (power-up)
#   import games.table_check  a table game's certificate check only (power-up)
#   import games.roulette    a table game's engine, only the family its model names (table_check)
#   import games.craps       the same
#   import games.sicbo       the same
#   import games.wheel       the same
#   import games.baccarat    the same
#   import games.table_text  a table game's rules text (the screen's rules, the console's `paytable`)
#   import games.cardtable_games  the card-poker table games' formats (a card-table model's check only)
#   import games.cardtable_cert  a card-poker table game's certificate check only (power-up)
#   import games.three_card  a card-poker table game's engine, only the one its model names (cardtable_games)
#   import games.caribbean   the same
#   import games.let_it_ride  the same
#   import games.red_dog     the same
#   import games.war         the same
#   import games.crazy_four  the same
#   import games.boston      the same
#   import games.three_five_seven  the same
#   import games.cardtable_text  a card-poker table game's rules text (s. 89), imported late
#   import games.blackjack_check  a blackjack game's certificate check only (power-up)
#   import games.blackjack   its engine (blackjack_check), with its model and progressive tables
#   bound games.model
#   import io                 a model given as text (model_json.loads: tests and tools, never the boot)
from games.reels import Outcome, ReelGame, load  # noqa: F401
