"""Reads for the public, player and live pages (issue 9): plain data in a fixed number of
queries, whatever the size of the tournament.

Only what TOURNAMENT.md makes public: no withdrawal reasons, no audit log, no pending gifts.
The read API's `read_models` serve the plain tables; what a page needs beyond them is read
here, one module per job:

- `lines`: a duel as a line (`DuelLine`), the live tag and the open duels' digest, rank labels,
  a score sheet's duel;
- `home`: now playing, next up, last results, leaders, placings;
- `watch`: a duel's public table (issue 28): cards, the last round, a window open, the last
  moves, for the watch page, now playing and the big screen;
- `coming`: what comes next, from the event's state (never from the schedule alone);
- `standings`: the individual table with the plan beside it, the big screen's board;
- `groups`: group totals, members, the charts' series;
- `rounds`: the 15 rounds;
- `tiebreaks`: the planned knockouts, or the "if it ended now" view;
- `bracket`: the Page playoff;
- `player`: the signed-in player's entries and duels (`/me/`).
"""
