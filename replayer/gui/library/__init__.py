"""The match library in the window: a dock with the stored matches (search, open). Handed the
library's database; emits the match the user chose to open (see :mod:`.view`)."""
