-- Setup phases: before play, each seat places its army. A seat keeps its
-- setup so far in the engine's text form (`Ke1 Qd1 Pe2`, absolute squares;
-- `Placement::to_text`) and whether its player declared it ready. A secret
-- setup is delivered to nobody but its own player until every seat is ready;
-- the game row's status is `setup` meanwhile, its `deadline` the setup
-- deadline, and its `start_fen` is written when play starts.
ALTER TABLE seats ADD COLUMN setup TEXT;
ALTER TABLE seats ADD COLUMN ready INTEGER NOT NULL DEFAULT 0;
