"""The pages of a tournament: public, organiser, console, player."""
