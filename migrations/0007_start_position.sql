-- A game asked for with `/play <variant> fen:<FEN>` starts from that
-- position: the challenge keeps it here (validated when it was made) until
-- it is accepted, and a rematch starts from it again. NULL: the variant's
-- own start (or a random Chess960 one).
ALTER TABLE games ADD COLUMN from_fen TEXT;
