"""The games' rules models: ``ygo.py`` (the Damage Step), ``dm.py`` (the attack)."""
