-- The computer's searches as shared work (`kodex worker`, and every
-- `kodex run` that searches): one row per game whose computer seat must
-- think (its move, or its secret setup). `state` names the game as it was
-- when the search was asked for (a hash of its record and status): a
-- search of an older state is never played. A process claims a job by
-- writing `claimed_by` and `claimed_until`; a claim whose time passed (its
-- process died mid-search) is taken again by the next free searcher.
-- `decision` is what the search chose, written by a searcher that cannot
-- play it itself (a worker without the game's platform); a process of that
-- platform plays it and deletes the row.
CREATE TABLE computer_jobs (
    platform      TEXT NOT NULL,
    game_id       TEXT NOT NULL,
    state         INTEGER NOT NULL,
    created_at    INTEGER NOT NULL,
    claimed_by    TEXT,
    claimed_until INTEGER,
    decision      TEXT,
    PRIMARY KEY (platform, game_id)
);

-- The oldest waiting job first.
CREATE INDEX computer_jobs_waiting ON computer_jobs (created_at) WHERE decision IS NULL;
