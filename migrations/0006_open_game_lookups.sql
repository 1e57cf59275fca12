-- "My games" lookups start from the user, never from every game of a platform:
-- a user's challenges are found by these two small indexes (only open
-- challenges are in them), their seated games by seats_by_user.
CREATE INDEX games_challenged_by ON games (platform, challenger_id) WHERE status = 'challenge';
CREATE INDEX games_challenging ON games (platform, opponent_id) WHERE status = 'challenge';
