-- Seats that play without their clock's increment (`games.no_increment`, a
-- set of seat numbers as bits, as `reminded` is): an arena player who
-- berserked has half the time and no increment for the rest of the game, as
-- on lichess. 0: every seat gets the increment.
ALTER TABLE games ADD COLUMN no_increment INTEGER NOT NULL DEFAULT 0;
