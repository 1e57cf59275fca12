-- Prisoner exchange (Enochian chess): the seat whose taken king offer
-- stands, the seat in turn order that holds a prisoner and offered to
-- exchange it; NULL when no offer stands.
ALTER TABLE games ADD COLUMN exchange_offer INTEGER;
