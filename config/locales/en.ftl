# Kodex — English messages. Every key here must also be in ru.ftl.

## Languages
lang-set = Language set: English.
lang-chat-set = This chat's language is now { $lang }.
lang-name-en = English
lang-name-ru = Russian
lang-current = Your language: { $lang }. Change it with /lang en or /lang ru (/lang chat ru sets the chat's language).
error-bad-lang = I speak English (en) and Russian (ru): /lang en or /lang ru.
error-lang-chat-admin = Only the chat's admins can change its language (on Discord: Manage Server; on Telegram: administrators). Your own language: /lang en or /lang ru.

## General errors
error-unknown-command = I don't know the command { $command }. /help lists what I understand.
error-conflict = Someone changed this game at the same moment; nothing was changed. Please try again.
error-internal = Something went wrong on my side; nothing was changed. Please try again later.
error-stale-button = This button is no longer valid.
error-not-your-button = This button is for someone else.
error-variant-gone = Game { $id } cannot be shown or played: its variant is no longer available. It stays hidden until the operator brings the variant back.
error-variant-changed = Game { $id } cannot be shown or played: the definition of its variant has changed since the game began. It stays hidden until the operator restores the definition it began under.
error-corrupt-game = Game { $id } cannot be loaded; the operator has been told.
error-line-too-long = That message is too long for me; it was ignored.

## Finding games
error-no-such-game = There is no game “{ $id }”. /games lists yours.
error-too-many-unknown-ids = You named too many game ids that are no game. Wait { $minutes ->
    [one] a minute
   *[other] { $minutes } minutes
} before naming a game by its id again; your own games you can still name.
error-not-your-game = You are not playing in game { $id }.
error-no-game = You have no game running here. Start one with /play <variant> [@opponent].
error-which-game = You have several games here; add the game id to the command (for example { $example }):
    { $games }

## Challenges
error-play-usage = Usage: /play <variant> [@opponent] [clock] [color] — for example /play atomic @bob 3+2 white. /variants lists the variants.
error-play-in-private = Challenges are made in a group chat, where your opponent can see them.
error-unknown-variant = I don't know the variant “{ $variant }”. /variants lists them.
error-bad-clock = “{ $clock }” is not a clock. Use none, bullet, blitz, rapid, minutes+increment like 3+2, or days per move like 1d.
error-no-such-color = “{ $color }” is not a colour of { $variant }: choose { $colors } or random.
error-bad-level = The computer's level is a number from 1 to 8, not “{ $level }”.
error-self-challenge = You cannot challenge yourself.
error-challenge-elsewhere = Challenge { $id } is open to the chat where it was made: accept it there.
error-too-many-challenges = You have { $max ->
    [one] { $max } open challenge
   *[other] { $max } open challenges
} already: wait for answers, or /decline one of them.
error-too-many-games = You are playing { $max ->
    [one] { $max } game
   *[other] { $max } games
} already: finish one before you start another.
error-not-a-challenge = { $id } is not a challenge waiting for an answer.
error-own-challenge = You cannot accept your own challenge. /decline withdraws it.
error-challenge-not-for-you = Challenge { $id } is meant for someone else.
error-no-challenge = There is no challenge here for you.
error-challenge-gone = Challenge { $id } is no longer open.
challenge-plays-white = { $player } plays white
challenge-plays-black = { $player } plays black
challenge-plays-red = { $player } plays red
challenge-plays-yellow = { $player } plays yellow
challenge-plays-blue = { $player } plays blue
challenge-colors-random = colours drawn at random
challenge-direct = { $challenger } challenges { $opponent } to { $variant } ({ $clock }, { $colors }). Game { $id }: { $opponent }, /accept or /decline.
challenge-open = { $challenger } is looking for an opponent: { $variant } ({ $clock }, { $colors }). Game { $id }: anyone may /accept.
challenge-declined = { $player } declined challenge { $id }.
challenge-withdrawn = { $player } withdrew challenge { $id }.
challenge-expired = Challenge { $id } by { $challenger } expired unanswered.
error-not-a-team-game = { $variant } is a game for two: challenge one opponent, /play <variant> @opponent.
error-two-boards = { $variant } is played on two boards, which this bot cannot host yet: its rules work in /rules and in the engine, the two-board game itself comes later.
error-team-twice = Someone is named twice: each seat needs a different player.
error-team-size = { $variant } has { $partners } partner seat(s) and { $opponents } opponent seat(s): /play <variant> @partner vs @opponent @opponent.
error-seat-yours = You already sit in game { $id }; the game starts when every seat is taken.
error-seat-taken = Seat { $seat } is taken by { $player }: pick an open seat.
error-no-open-seat = Every seat of game { $id } is taken or kept for someone.
challenge-teams = { $challenger } proposes a team game of { $variant } ({ $clock }). Game { $id }:
seat-taken = { $player } takes seat { $seat } in game { $id }:
seat-team = Team { $team }: { $seats }
seat-line = seat { $seat } ({ $color }) { $player }
seat-open = open
seat-invited = { $player } (invited)
seat-how = Take a seat with the buttons or /accept { $id } (someone invited takes their own seat); the game starts when every seat is taken.
button-take-seat = Take seat { $seat } ({ $color })
button-accept = Accept
button-decline = Decline

## The lobby: public seeks, play now, invitations
command-lobby = Open games: this chat's challenges and everyone's public seeks
command-playnow = Play now: join the best open game, or publish a seek
command-invite = Invite a friend: a one-time code (a link on Telegram)
command-join = Take a friend's invitation by its code
challenge-public = { $challenger } is looking for an opponent anywhere on the platform: { $variant } ({ $clock }, { $colors }). Game { $id }: anyone may /accept, here or from /lobby in any chat.
seek-published = Nobody is waiting for such a game, so { $challenger } now seeks one: { $variant } ({ $clock }, { $colors }). Game { $id } is in the /lobby of every chat; you will hear here when someone takes it.
offer-rated = rated
offer-casual = casual
lobby-header = { $count ->
    [one] One open game:
   *[other] { $count } open games:
}
lobby-line-here = { $id } · { $variant } · { $clock } · { $rated } · { $player } ({ $rating }) · in this chat
lobby-line = { $id } · { $variant } · { $clock } · { $rated } · { $player } ({ $rating })
lobby-more = … and { $count } more: /lobby <variant> narrows the list.
lobby-how = Accept with a button or /accept <game>; /playnow joins the best one for you.
lobby-empty = No open games right now. /playnow publishes a seek anyone may take; /play <variant> challenges this chat.
button-accept-offer = Accept { $id }
button-withdraw = Withdraw
invite-terms = { $variant }, { $clock }, { $rated }
invite-link = Your invitation ({ $terms }): send your friend this link — { $link } — the first to open it and press Start plays you, in their private chat with me. In a chat we share they may also type /join { $code }. It expires in { $minutes ->
    [one] one minute
   *[other] { $minutes } minutes
}.
invite-code = Your invitation ({ $terms }): give your friend the code { $code }; the first to type /join { $code } in any chat or private chat where I am plays you. It expires in { $minutes ->
    [one] one minute
   *[other] { $minutes } minutes
}.
error-public-open-only = Only an open challenge of two players goes to the lobby: leave out the opponent (games for four are played in their chat).
error-invite-two-players = Invitations are for games of two; a game for four is challenged in its chat with /play.
error-too-many-seeks = You already have { $max ->
    [one] { $max } public seek
   *[other] { $max } public seeks
} waiting: withdraw one (/decline <game>) or wait until it is taken.
error-too-many-invites = You already have { $max ->
    [one] { $max } unused invitation
   *[other] { $max } unused invitations
}: withdraw one (/decline <game>) or wait until it is used or expires.
error-join-usage = Type the invitation's code: /join <code>.
error-no-invitation = No invitation has the code “{ $code }”. Check it with whoever sent it.
error-invitation-used = The invitation “{ $code }” was already used, withdrawn or has expired.
error-own-invitation = That is your own invitation: give the code to a friend.
button-share-invite = Post here
button-join = Join
invite-posted = { $player } invites someone to a game ({ $terms }): the first to press Join (or type /join { $code }) plays.
command-notify = The personal ticker: news of your games from other chats, privately (on or off)
ticker-on = The ticker is on: when you are challenged, asked to answer an offer, or it is your move in a correspondence game in a chat other than the one you last wrote in, I tell you privately. /notify off stops it.
ticker-on-telegram = The ticker is on: when you are challenged, asked to answer an offer, or it is your move in a correspondence game in a chat other than the one you last wrote in, I tell you privately — once you have started a private chat with me (Telegram lets bots write only then). /notify off stops it.
ticker-off = The ticker is off: news of your games stays in their chats. /notify on turns it back on.
command-review = The computer's summary of a finished game's biggest mistakes
review-header = Game { $id }, reviewed by the computer (a short search of every position):
review-clean = No big mistakes: no move lost more than a pawn and a half by the computer's reckoning.
review-line = { $played } { $cost }; { $better } was better.
review-cost-pawns = costs about { $pawns } pawns
review-cost-piece = costs about a piece
review-cost-rook = costs about a rook
review-cost-queen = costs about a queen
review-cost-missed-mate = lets a forced mate slip
review-cost-allowed-mate = allows a forced mate
error-review-not-over = Game { $id } is not over yet: it is reviewed once it has ended.
error-review-two-players = Reviews are for games of two players on one board.
ticker-news = From game { $id }, in another chat:
    { $news }
    (/notify off stops these messages.)

## Playing
game-started = Game { $id } starts: { $variant }, { $white } ({ $white_color }) against { $black } ({ $black_color }), { $clock }.
chess960-position = Start position number { $number }.
fog-started = Fog of war: send your moves to me in a private chat; each of you gets your own board there.
turn = { $id } · move { $number } · { $player } ({ $color }) to move
moved = { $id }: { $player } played { $san }.
game-title = { $variant }: { $white } vs { $black } · { $id }
game-gif = Game { $id }, move by move.
game-analyse = Analyse it on lichess: { $url }
you-moved = { $id }: you played { $san }.
your-turn = { $id } · move { $number } · your move.
their-turn = { $id } · move { $number } · waiting for your opponent.
you-are-in-check = You are in check!
kriegspiel-started = Kriegspiel: you see only your own pieces. Send your moves to me in a private chat; I am the referee and announce moves, captures, checks, pawn tries and impossible attempts to you both and here.
referee-moved = { $id }: { $player } ({ $color }) has moved.
referee-capture = { $id }: { $player } ({ $color }) captures on { $square }.
referee-check = { $id }: check { $direction }.
referee-double-check = { $id }: double check — { $first } and { $second }.
check-direction = { $direction ->
    [rank] on the rank
    [file] on the file
    [long] on the long diagonal
    [short] on the short diagonal
   *[knight] by a knight
}
referee-pawn-tries = { $id }: { $player } ({ $color }) has { $count ->
    [one] { $count } pawn try
   *[other] { $count } pawn tries
}.
referee-impossible = { $id }: { $player } ({ $color }) tried an impossible move.
you-impossible = { $id }: “{ $move }” is impossible. It is still your move — try another.
color-white = white
color-black = black
clock-preset-bullet = bullet
clock-preset-blitz = blitz
clock-preset-rapid = rapid
clock-preset-classical = classical
clock-none = no clock
clock-phrase = clock: { $clock }
clock-per-move = { $days ->
    [one] { $days } day per move
   *[other] { $days } days per move
}
error-move-usage = Usage: /move <move>, for example /move Nf3 (SAN, UCI like g1f3, or Russian letters like Кf3).
error-move-too-long = That is too long to be a move.
error-game-over = Game { $id } is over.
error-fog-move-in-public = Game { $id } is played in the fog: send your move to me in a private chat, not here.
error-not-your-turn = It is not your turn in game { $id }.
error-move-unparseable = “{ $move }” is not a move I can read. Try SAN like Nf3, exd5, O-O, e8=Q or UCI like g1f3.
error-move-illegal = “{ $move }” is not legal in this position.
error-move-illegal-because = “{ $move }” is not legal in this position: { $reason }.
error-move-illegal-because-listed = “{ $move }” is not legal in this position: { $reason }. { $legal }
error-move-illegal-listed = “{ $move }” is not legal in this position. { $legal }
refusal-legal-moves = { $count ->
    [one] The only legal { $piece } move: { $moves }.
   *[other] Legal { $piece } moves: { $moves }.
}
refusal-no-piece = you have no { $piece }
refusal-no-piece-on = no piece of yours stands on { $square }
refusal-none-reaches = no { $piece } of yours can reach { $square }
refusal-own-piece-there = your own piece stands on { $square }
refusal-promotion = your { $piece } may not promote to that piece there
refusal-blocked = pieces stand in the way of your { $piece } to { $square }
refusal-citadel = your { $piece } may not enter the citadel on { $square }
refusal-pinned = your { $piece } is pinned: moving it would expose your king
refusal-into-check = your { $piece } would stand in check on { $square }
refusal-in-check = your king is in check, and this move does not answer it
refusal-castle-not-in-game = there is no castling in this game
refusal-castle-no-right = the right to castle that way is lost (the king or that rook has moved)
refusal-castle-blocked = pieces stand between your king and rook, or where they go
refusal-castle-in-check = you may not castle out of check
refusal-castle-through-check = your king may not pass through or land on an attacked square
refusal-not-in-hand = you have no { $piece } in hand
refusal-no-drops = pieces are not dropped in this game
refusal-must-capture = capturing is compulsory, and you have a capture
refusal-palace = the { $piece } may not leave its palace
refusal-gives-check = that move would give check, and checks are not allowed in this game
refusal-facing = the generals face each other: a move must part them, or you pass
refusal-drop-mate = a { $piece } may not be dropped to give mate here
refusal-needs-screen = your { $piece } moves only by jumping over exactly one piece, and none stands on its way to { $square }
piece-name = { $name }
error-move-ambiguous = “{ $move }” is ambiguous; did you mean { $candidates }?
error-kriegspiel-move-in-public = Game { $id } is Kriegspiel: send your move to me in a private chat, not here.
error-kriegspiel-no-such-move = “{ $move }” is not a move your pieces can make, whatever the opponent has.

## Offers
draw-offered = { $player } offers a draw in game { $id }. { $opponent }: /draw to accept, /nodraw to decline.
draw-declined = { $player } declined the draw offer in game { $id }.
error-draw-already-offered = You have already offered a draw; offers cannot be withdrawn.
error-draw-offered-by-team = Your team has offered a draw in game { $id }; the other team answers it.
error-draw-already-agreed = You have already agreed to the draw in game { $id }; your partner still has to.
error-no-draw-offer = There is no draw offer for you to answer. /draw offers one.
error-offer-not-withdrawable = Offers cannot be withdrawn; your opponent answers it.
takeback-requested = { $player } asks to take back their last move in game { $id }. { $opponent }: /takeback to allow, /notakeback to refuse.
takeback-refused = { $player } refused the takeback in game { $id }.
takeback-done = { $id }: the move was taken back.
error-takeback-hidden = There are no takebacks in games with hidden information.
error-takeback-nothing = You have no move to take back yet.
error-takeback-already = You have already asked for a takeback; your opponent answers it.
error-no-takeback = There is no takeback request for you to answer.
error-abort-too-late = Both sides have moved; the game can no longer be aborted. /resign ends it.
game-aborted = { $player } aborted game { $id }.
resign-confirm = Resign game { $id } against { $opponent }? This cannot be undone.
button-resign = Resign
button-play-on = Play on
button-setup-random = Random
button-setup-ready = Ready
button-show-board = Show board
button-offer-draw = Offer draw
button-takeback = Take back
resign-kept = Game { $id } goes on.
error-resign-question-lapsed = That question about game { $id } has lapsed: you have moved since. Send /resign again if you mean it.

## Results
result-win = { $id }: { $result } — { $winner } ({ $color }) wins: { $reason }.
result-draw = { $id }: ½–½ — draw: { $reason }.
result-aborted = { $id }: aborted.
reason-checkmate = checkmate
reason-stalemate = stalemate
reason-repetition = threefold repetition
reason-fifty-moves = fifty moves without capture or pawn move
reason-insufficient-material = no mating material
reason-exploded-king = the king exploded
reason-three-checks = third check
reason-hill = the king reached the hill
reason-race = the king reached the last rank
reason-no-pieces = no pieces left
reason-no-moves = no moves left
reason-resign = { $loser } resigned
reason-timeout = { $loser } ran out of time
reason-timeout-draw = time ran out, but the opponent has no mating material
reason-agreement = agreed
reason-aborted = aborted
reason-other = game over

## Setup phase
setup-started = Game { $id } is being set up: { $variant }, { $white } (white) against { $black } (black), { $clock }. Each player sends their setup to me in a private chat; the clocks start when both are ready.
setup-deadline = Time to set up: { $left }; whoever is not ready by then gets a random setup.
setup-instructions = { $id }: set up your army ({ $color }) here, in private. Place pieces (Ke1 Qd1 e2; placing a lone piece again moves it), or send your half as FEN from your side (RNBQKBNR/PPPPPPPP), or: random (the king shielded: it never loses before the first move), last (your previous setup in this variant), clear, board. Then send ready — a ready setup cannot be changed.
setup-state-missing = { $id } · your setup ({ $color }): still to place { $pieces }.
setup-state-complete = { $id } · your setup ({ $color }) is complete: send ready to confirm it.
setup-state-invalid = { $id } · your setup ({ $color }): { $reason }
setup-state-ready = { $id } · your setup ({ $color }) is ready; waiting for your opponent.
setup-state-final = { $id } · your setup ({ $color }) is final.
setup-random = A random setup was placed.
setup-last = Your last setup in this variant was placed.
setup-player-ready = { $id }: { $player } is ready.
setup-timeout = { $id }: time to set up ran out; random setup for { $players }.
setup-timeout-you = { $id }: time to set up ran out; you get a random setup.
setup-revealed = { $id }: both setups are revealed.
setup-kept-secret = { $id }: both sides are set up; each keeps seeing only their own pieces.
setup-public-started = Game { $id } is being set up: { $variant }, { $white } (white) against { $black } (black), { $clock }. The players place their pieces here, one at a time, in turn: a placement like Ke1 (e2 for a pawn), or random. The clocks start when every piece stands.
setup-public-turn = { $id }: { $player } ({ $color }) places next: { $pieces }.
setup-public-deadline = Time for this placement: { $left }; after that the rest of those pieces are placed at random.
setup-public-placed = { $id }: { $player } placed { $placement }.
setup-public-placed-random = { $id }: { $player } placed { $placement } at random.
setup-public-timeout = { $id }: { $player } ran out of time to place; the rest of their pieces are placed at random.
setup-public-done = { $id }: every piece stands; play begins.
error-setup-not-your-turn = { $id }: it is { $player }'s turn to place a piece.
setup-error-one-at-a-time = Pieces are placed one at a time, in turn: send one placement like Ke1, or random.
error-setup-in-public = Game { $id } is being set up in secret: send your setup to me in a private chat, not here.
error-setup-too-long = That is too long for a setup.
error-setup-over = Game { $id } is no longer being set up.
error-setup-ready = { $id }: your setup is ready and cannot be changed any more.
error-setup-no-last = You have no earlier setup in this variant.
error-setup-not-ready = Not ready yet: { $reason }
setup-error-nothing-to-place = There is nothing for you to set up.
setup-error-unreadable = “{ $word }” is not a placement: write pieces like Ke1 Qd1 e2, or your half as FEN like RNBQKBNR/PPPPPPPP.
setup-error-not-in-army = There is no piece { $piece } in your army.
setup-error-all-placed = Every { $piece } is placed already; clear starts again.
setup-error-outside-zone = { $square } is outside your setup zone (ranks { $from }–{ $to }).
setup-error-pawn-rank = A pawn may not stand on { $square } (pawns: ranks { $from }–{ $to }).
setup-error-occupied = { $square } is occupied.
setup-error-missing = still to place { $pieces }.
setup-error-bishops-same-colour = Bishops must stand on squares of different colours.
setup-error-pawns-share-file = Exactly one pawn per file (two on the { $file }-file).
time-jump = { $id }: { $player } travels in time: { $jump } ({ $charges ->
    [one] 1 time charge
   *[other] { $charges } time charges
} left).
error-jump = The jump { $jump } is not possible: { $reason }.
error-jump-alone-then-move = You have jumped: now make your move in the new timeline.
jump-no-charges = you have no time charges left
jump-too-far-back = a jump goes back 1 to { $max } of your own moves
jump-not-that-many-moves = you have made only { $made ->
    [one] { $made } move of your own
   *[other] { $made } of your own moves
} in this timeline
jump-not-your-piece = none of your pieces stands on that square
jump-king-cannot-travel = the king does not travel in time
jump-wrong-piece = that is not the piece on that square
jump-own-piece-there = in the past your own piece stands on that square
jump-king-there = in the past a king stands on that square
jump-same-square = the piece stood on that square then already
jump-gives-check = its appearance would give check
jump-pawn-on-edge-rank = a pawn may not appear on the first or last rank
jump-no-move-after = after it you would have no legal move
jump-unreadable = write a jump like T-2:Nf3 (back 2 of your moves with the knight now on f3), then your move
jump-other = this variant or this moment allows no jump
timeline-caption = Game { $id }: the present board on top, under it { $count ->
    [one] the abandoned timeline
   *[other] { $count } abandoned timelines
} at the moment each was left.
timeline-none = Game { $id } has no abandoned timeline yet: this is the present board.
timeline-label = Line { $number } · { $move } { $jump }
error-timeline-not-time-travel = Game { $id } is not a time-travel game: it has no timelines.
reason-setup-check = { $loser } was in check before the first move
reason-king-capture = the king could be taken at once after the placement
reason-mate-at-once = mate at once was possible after the placement
# Janggi: ends decided by counting points.
reason-bikjang = the generals kept facing each other (bikjang), decided on points
reason-passes = both sides passed, decided on points
reason-points = a drawn position decided on points
reason-bare-king = a bare king
reason-promotion-goal = a pawn reached the last rank
reason-citadel = a king entered the opponent's citadel
setup-error-gives-check = A piece on { $square } would attack the enemy king.
games-setup = being set up

## Information
games-none = You have no games or challenges. Start one: /play chess @friend
games-header = Your games:
games-more = …and { $count } more.
games-challenge = challenge, waiting for an answer
games-your-move = your move
games-their-move = opponent's move
error-pgn-hidden = The record of game { $id } stays hidden until the game ends.
error-rules-usage = Usage: /rules <variant>, for example /rules atomic. /variants lists them.
variants-header = Variants (/rules <id> explains one):
variants-hidden-mark = {" "}(hidden information: moves in private chat)
variants-drops-mark = {" "}(drops: captured pieces come back into play)
variants-family-codex = The Codex (our rule book):
variants-family-hidden = Hidden information and secret setups:
variants-family-historical = Historical and fairy games:
variants-family-four = Games for four:
variants-family-lessons = Lessons (/learn):
variants-family-other = Others:
## The teaching ladder (/learn)
learn-header = Learn chess step by step — six lessons, each adding pieces to the last:
learn-goal = { $lesson ->
    [1] move pawns and capture with them; the first pawn to reach the last rank wins.
    [2] bishops join the pawns; free your bishops and block the enemy's. First pawn through wins.
    [3] rooks join; keep them, and use them on the open files. First pawn through wins.
    [4] knights and pawns; find the knight's shortest way. First pawn through wins.
    [5] all the pieces but king and queen, working together. First pawn through wins.
   *[6] king, queen, bishops and the centre pawns: check and checkmate.
}
learn-footer = Start a lesson with a friend: /learn 1 @friend — or against the computer: /learn 1 computer. /rules lesson1 explains one.
learn-learned = { $lesson ->
    [1] Lesson 1 done: you know how pawns move and capture, and that pawns which meet head on are stuck.
    [2] Lesson 2 done: you know how bishops move, how to let them out and how pawns protect and block them.
    [3] Lesson 3 done: you know how rooks move, and that winning material is not yet winning the game.
    [4] Lesson 4 done: you know the knight's L-shaped jump.
    [5] Lesson 5 done: you have made all the minor pieces and rooks work together.
   *[6] Lesson 6 done: you know check, checkmate and stalemate.
}
learn-next = Next: /learn { $lesson } (with @friend or computer).
learn-done = That was the last lesson: now play a whole game — /play chess.

help =
    Kodex — chess variants in chat. The first steps:
    /play <variant> @friend — challenge someone (no one named: anyone here may accept); /play chess computer — play the computer at once.
    /accept, or the Accept button — take a challenge. /playnow — a game with anyone, at once.
    Type your move in the chat: e4, Nf3, O-O (or /move e4). /resign, /draw, /takeback — or the buttons under the latest board.
    /variants — what you can play; /rules <variant> — how it is played; /learn — six lessons from pawns to checkmate.
    /lang ru — по-русски. Every command also has a Russian name, typed on every platform: { $russian }.
    More: /help play (clocks, colours, the computer, positions, rematches, ratings) · /help moves (how to write moves, offers, buttons, records) · /help hidden (fog of war, Kriegspiel, setups, time travel) · /help four (games for four) · /help more (watching, notation, reminders, language).
help-play =
    Starting games:
    /play <variant> [@opponent] [clock] [color] — challenge someone (no opponent: anyone may accept). Clock: none, bullet (1+0), blitz (3+2), rapid (10+5), classical (30+20), 3+2, 15+10, 1d (days per move). Colour: white, black, random.
    /play <variant> computer [level 1-8] — play the computer at once (default level 3; on Discord: /play with the bot as opponent). It plays every variant (in fog of war and Kriegspiel from its own view), answers draw offers, exchanges Enochian prisoners and allows takebacks.
    /accept, /decline — answer a challenge (add the game id if there are several).
    /play <variant> … fen:<FEN> — start from a position (the FEN goes last), e.g. /play chess @bob fen:4k3/8/8/8/8/8/4P3/4K3 w - - 0 1; the PGN records it.
    /rematch [game] (or the Rematch button under the result) — the same game again, colours swapped; the other player accepts.
    /rating [@user], /leaderboard [variant] [global] [page], /stats [@user] — ratings; clocked games of two are rated unless casual.
    /learn — six lessons from pawns to checkmate; /learn 1 @friend or /learn 1 computer starts one.
    /playnow [variant] [clock] — join the best open game, here or in any chat, nearest rating first, or publish a seek; /lobby [variant] lists the open games with Accept buttons; /play … public puts a challenge in every chat's lobby.
    /invite [variant] [clock] [colour] — a one-time code for a friend (on Telegram a link), answered privately; the first to /join <code> anywhere plays you. /notify on|off — news of your games from other chats, privately.
    /tournament new swiss chess 3+2 5 in 10 — a tournament in this chat (swiss, roundrobin, double round robin or knockout); /tournament join, leave, pause, standings, start, add computer, cancel, trf; /berserk halves your clock (and drops the increment) in an arena game for a point more on a win.
help-moves =
    Playing:
    /move <move> or just type the move — SAN (Nf3, O-O, e8=Q), UCI (g1f3) or Russian letters (Кf3). A move that is refused is told with the reason.
    /resign (asks to confirm), /draw (offer or accept), /nodraw, /takeback (ask or allow), /notakeback, /abort (before both have moved).
    The latest board of a game has buttons: Offer draw, Resign, Take back (once you have moved), Show board. On Discord, the options suggest your moves, clocks and games.
    /board, /games, /pgn [game] (a long record comes as a file), /review [game] (a finished game's biggest mistakes, by the computer), /rules <variant>, /variants.
    Janggi: pieces stand on the points; type pass (or your general's square twice, e2e2) to pass your turn; a draw is decided on points (/rules janggi).
help-hidden =
    Hidden information and other special games:
    Fog of war: send your moves to me in a private chat; your own board comes there after every move.
    Kriegspiel: the same, and you see only your own pieces; a move the real position forbids is "impossible" and you try again.
    Battle chess and other setup games: after /accept send your setup to me in private (Ke1 Qd1 e2, a FEN half, random, ready); in placement games (Frolov chess, Maharajah) place one piece at a time here, in turn (one board a round; board shows it). Kriegspiel from a secret setup (kriegspielbattle) keeps both setups secret for the whole game.
    Time travel: T-2:Nf3 e5 jumps back 2 of your moves with the knight now on f3 and plays e5 in the new timeline (or send the jump, then the move); two charges each, /rules timetravel; /timeline [game] shows every abandoned timeline under the present board.
help-four =
    Games for four (bughouse, fourplayer, enochian):
    /play bughouse @partner vs @a @b 3+0 — people named before vs are partners; unnamed seats are open, and anyone takes them with the Take seat button.
    /resign resigns for your team; a draw needs every player of the other team.
    Bughouse: your captures go to your partner's reserve, drops like N@f3; /partner <text> writes to your partner alone.
    Four-handed and Enochian chess: a player left with no move passes automatically.
    Enochian chess: a king on its partner's throne makes its player move both armies; /exchange offers (or accepts) an exchange of taken kings, /noexchange declines; /retire leaves the game, handing your army to your partner.
help-more =
    More:
    /watch <game> — this chat (or you, in a private chat; or the Watch button) follows a game played elsewhere: its public messages only; /unwatch <game>.
    /notation ru|en|auto — piece letters of the moves shown to you privately (Кр Ф Л С К or K Q R B N).
    With a clock, you are reminded privately once: at 10 % of a live clock, at a quarter of a correspondence move's time.
    /lang en|ru — your language; /lang chat en|ru sets what the chat hears (its admins).
    /settings — this chat's settings; /settings board white keeps white at the bottom of the board posted after each turn, /settings board side-to-move turns it to the player to move; /settings boards edit keeps one board message per game, edited each turn (Telegram), /settings boards new posts a new one (its admins).
    /help <topic> — play, moves, hidden, four, more.

## What the adapters write themselves (notices, fallbacks, button labels).
adapter-dm-refused = { $mention }, I can't send you direct messages (your DMs are closed or I am blocked). Press the button to see your board here; only you will see it.
adapter-sent-by-dm = Sent to your direct messages.
adapter-show-my-board = Show my board
adapter-game-continues = Game { $game } continues in { $thread }.
adapter-send-failed = Discord did not let me post the reply. Check that I may send messages and attach files in this channel, then try again.
adapter-file-too-large = (The image was too large for { $platform } to take.)
adapter-bad-options = I could not read the command's options. Please try again.
adapter-internal-error = Something went wrong on my side. Please try again.
adapter-unknown-command = I no longer have this command. /help lists the ones I have.
adapter-deep-link-prompt = { $player }, your board is for your eyes only. Tap the button, then Start, and I'll send it to our private chat.
adapter-note-link-prompt = { $player }, I have a private answer for you. Tap the button, then Start, so that I can write to you.
adapter-note-link-button = Open the private chat
adapter-deep-link-button = Open my board
adapter-picker-prompt = Choose a variant:
adapter-picker-computer-prompt = A game against the computer. Choose a variant:
adapter-picker-not-yours = This menu is for whoever typed /play.
adapter-picker-expired = This menu has expired; type /play again.

## The commands' descriptions (bot/src/command.rs): Telegram's menu (1–256
## characters) and Discord's slash commands (1–100).
command-play = Challenge someone, or anyone here: variant, opponent, clock, colour
command-accept = Accept a challenge (the one here, or by game id)
command-decline = Decline a challenge, or withdraw your own
command-move = Make a move: e4, Nf3, e7e8q …
command-m = Short for /move
command-resign = Resign (asks you to confirm)
command-draw = Offer a draw, or accept your opponent's offer
command-nodraw = Decline your opponent's draw offer
command-takeback = Ask to take your move back, or allow your opponent's request
command-notakeback = Refuse your opponent's takeback request
command-abort = Abort a game before both sides have moved
command-board = Show the board (privately in hidden games)
command-games = Your games
command-pgn = The game record as PGN
command-timeline = Time travel: the present board and every abandoned timeline
command-rules = The rules of a variant
command-variants = The variants you can play
command-learn = Lessons from pawns to checkmate: the list, or start one
command-rematch = Rematch: the same game, colours swapped
command-watch = Follow a game played elsewhere here (its public messages)
command-unwatch = Stop following a game here
command-notation = Piece letters of the moves shown to you privately: ru, en or auto
command-partner = Bughouse: a private message to your partner
command-exchange = Enochian chess: offer or accept an exchange of prisoners
command-noexchange = Enochian chess: decline the exchange of prisoners
command-retire = Enochian chess: leave the game, handing your army to your partner
command-help = How to play with Kodex
command-lang = The language I speak to you (or to this chat): en or ru

## Start from a position (/play <variant> fen:<FEN>)
challenge-position = Starts from the position { $fen }
error-fen-setup = { $variant } begins with each side placing its pieces: it cannot start from a position.
error-fen-teams = { $variant } is a game for four: it cannot start from a position.
error-fen-over = This position is already over (mate or no moves): there is nothing to play.
error-fen-too-long = This position does not read: it is too long.
error-fen-empty = This position does not read: it is empty. Write it after fen:, last, e.g. /play chess fen:4k3/8/8/8/8/8/4P3/4K3 w - - 0 1
error-fen-board-too-large = This position does not read: the board does not fit.
error-fen-rank-count = This position does not read: the board has { $expected } ranks, the position { $found }.
error-fen-rank-too-long = This position does not read: rank { $rank } has too many squares.
error-fen-rank-too-short = This position does not read: rank { $rank } has { $found } squares, the board { $expected }.
error-fen-zero-run = This position does not read: 0 is not a number of empty squares.
error-fen-unknown-piece = This position does not read: “{ $piece }” is no piece of this variant.
error-fen-piece-on-hole = This position does not read: a piece (“{ $piece }”) stands where the board has no square.
error-fen-stray-promoted = This position does not read: ~ must follow a piece.
error-fen-unclosed-pocket = This position does not read: a pocket [ must be closed by ] at the end of the board.
error-fen-no-pockets = This position does not read: this variant has no pieces in hand.
error-fen-unknown-pocket-piece = This position does not read: “{ $piece }” in hand is no piece of this variant.
error-fen-pocket-full = This position does not read: too many pieces in hand.
error-fen-bad-side = This position does not read: the side to move is w or b, not “{ $text }”.
error-fen-too-many-kings = This position does not read: { $side ->
        [white] white
       *[black] black
    } has more than one king.
error-fen-royal-in-pocket = This position does not read: “{ $piece }” is a king, and a king is never in hand.
error-fen-missing-royal = This position does not read: { $side ->
        [white] white
       *[black] black
    } has no king.
error-fen-pawn-on-promotion-rank = This position does not read: a pawn stands on its promotion rank.
error-fen-royal-only = This position does not read: only a king may stand on { $square } (a citadel).
error-fen-bad-castling = This position does not read: “{ $piece }” is no castling right.
error-fen-bad-en-passant = This position does not read: “{ $text }” is no en-passant square.
error-fen-bad-check-counter = This position does not read: “{ $text }” is no check counter.
error-fen-bad-counter = This position does not read: “{ $text }” is not a number.
error-fen-too-many-fields = This position does not read: it has too many fields.
error-fen-opponent-in-check = This position does not read: the side not to move is in check.
error-fen-other = This position does not read in this variant.

## Rematch
button-rematch = Rematch
rematch-offered = { $challenger } offers { $opponent } a rematch of game { $after }: { $variant } ({ $clock }, { $colors }). Game { $id }: { $opponent }, /accept or /decline.
error-rematch-none = You have no ended game in this chat: /rematch <game>.
error-rematch-not-over = Game { $id } is not over yet.
error-rematch-not-player = You did not play in game { $id }.
error-rematch-teams = A rematch is for games of two players; for four, start a new challenge with /play.
error-rematch-pending = Your rematch offer is waiting: game { $id }.

## Spectators
button-watch = Watch
watch-started = Watching game { $id } here: { $game }. Every public message of the game comes here too; /unwatch { $id } stops it.
watch-stopped = No longer watching game { $id } here.
error-watch-usage = Which game? /watch <game> (the id is in every message of the game).
error-watch-over = Game { $id } is not running: /pgn { $id } shows its record.
error-watch-here = Game { $id } is played in this chat already.
pgn-as-file = The record of game { $id } is too long for one message: here it is as a PGN file.
error-watch-limit = One chat (or person) watches at most { $max ->
    [one] { $max } game
   *[other] { $max } games
} at once; /unwatch one first.
error-watch-already = Game { $id } is watched here already.
error-not-watching = Game { $id } is not watched here.

## Reminders
reminder = ⏰ Game { $id } against { $opponent }: your move, and { $left } left on your clock.

## Notation (/notation)
notation-current = Your moves are shown with { $notation ->
        [ru] Russian piece letters (Кр Ф Л С К)
        [en] English piece letters (K Q R B N)
       *[auto] the piece letters of your language
    }. Change it: /notation ru, /notation en or /notation auto.
notation-set = From now on your moves are shown with { $notation ->
        [ru] Russian piece letters (Кр Ф Л С К)
        [en] English piece letters (K Q R B N)
       *[auto] the piece letters of your language
    }.
error-bad-notation = Notation: /notation ru (Кр Ф Л С К), /notation en (K Q R B N) or /notation auto (by your language).

## Bughouse (two linked boards)
bughouse-started = Bughouse game { $id } starts ({ $variant }, { $clock }): board A { $a }, board B { $b }. Partners: { $first } against { $second }. Type your moves as usual; captured pieces go to your partner's reserve; /partner <text> talks to your partner alone.
bughouse-board = Board { $board }:
bughouse-gift = { $player } gets { $piece ->
        [P] a pawn
        [N] a knight
        [B] a bishop
        [R] a rook
        [Q] a queen
       *[other] a piece
    } on board { $board }.
bughouse-result = { $id }: { $result } — { $winners } win: { $reason } on board { $board }.
bughouse-draw-offered = { $player } offers a draw in bughouse game { $id }. It is a draw when both { $opponents } agree: /draw to agree, /nodraw to decline.
error-takeback-bughouse = No takebacks in bughouse: a move on one board has already fed the other.
error-partner-usage = Write to your partner: /partner <text>.
error-partner-no-game = You have no running bughouse game, so no partner to write to.
partner-message = 💬 { $player } (your partner, game { $id }): { $text }
partner-sent = Sent to { $player } only.

## Four-handed chess (issue 13): turns the seat rules force.
fourplayer-mated = { $player }'s king is checkmated: send “pass”, and the next player must capture it.
fourplayer-no-move = { $player } has no legal move: send “pass”.
fourplayer-take-king = { $player } must capture the mated king.

## Enochian chess (issue 13): kings taken rather than mated
reason-kings-taken = both kings of the team were taken
color-red = red
color-yellow = yellow
color-blue = blue

## The computer in games of four (issues 13, 15).
error-team-computer-twice = The computer is named twice: give each of its seats a different level (`computer level 2`).

## Draws in games of four on one board: every player of the other team agrees
draw-agreed-waiting = { $player } agrees to a draw in game { $id }. Still to agree: { $waiting } (/draw to agree, /nodraw to decline).
draw-offered-team = { $player } offers a draw in game { $id }. It is a draw when all of { $opponents } agree: /draw to agree, /nodraw to decline.

## Automatic passes in games of four (issue 13): a seat left with only the pass.
auto-pass-mated = { $player } ({ $color }) is checkmated and passes.
auto-pass-no-move = { $player } ({ $color }) has no move and passes.

## Enochian chess (issue 13): thrones and prisoners
throne-moves-for = { $player } moves { $color } for { $owner }: their king took the throne.
throne-taken = 👑 { $player }'s king takes the throne of { $color }: { $player } now moves { $owner }'s army too, on its turns.
exchange-king = { $color }'s king
exchange-offered = { $player } offers to exchange prisoners in game { $id }: { $theirs } for { $ours }. { $opponent }: /exchange to accept, /noexchange to decline.
exchange-done = { $id }: prisoners exchanged. { $first } and { $second } come back to their thrones, and their armies play again.
exchange-declined = { $player } declines the exchange of prisoners.
exchange-no-offer = No exchange of prisoners is on offer.
exchange-already-offered = Your team has already offered an exchange of prisoners; the other team answers.
exchange-not-here = Game { $id } has no prisoners to exchange: only Enochian chess does.
exchange-nothing = Your army holds no taken king to exchange.
exchange-own-king-taken = Your own king was taken: only a player who still has their king may exchange prisoners.
exchange-their-king-taken = { $player } has lost their own king, so cannot exchange prisoners.
exchange-they-hold-none = { $player } holds no king of your team, so there is nothing to exchange.
reason-team-stalemated = a player was stalemated while their partner was out of play too
reason-bare-kings = both players of a team were left with bare kings

## Enochian chess: retiring from the game
retire-done = { $player } retires from game { $id }: { $partner } now moves { $color } too.
retire-bare-king = { $color } is a bare king: on both turns { $partner } moves that king or their own army.
retired-moves-for = { $player } moves { $color } for { $owner }, who retired.
retired-shares-turns = { $player } may move { $color }'s bare king or their own army on this turn ({ $owner } retired).
retire-you-left = You retired from game { $id }: { $partner } plays your army now.
retire-not-here = No one can retire from game { $id }: only Enochian chess, a game of four in two teams, allows it.
retire-partner-retired = { $partner } has already retired: the last player of a team stays (you may /resign for the team).
retire-own-king-taken = Your king was taken: a frozen army is nothing to hand over.
retire-partner-king-taken = { $partner }'s king was taken: no one in play could take over your army.
retire-controls-partner = You play both armies (your king took { $partner }'s throne): a player of two armies may not retire.

## Ratings (bot/src/rating.rs, service/commands/ratings.rs).
game-rated = Rated game: the result changes both players' ratings.
game-casual = Casual game: ratings do not change.
rating-changes = Ratings: { $changes }
error-rated-computer = Games against the computer are never rated; leave out “rated”.
error-rated-position = Games from a set position are never rated; leave out “rated”.
error-rated-no-clock = Only games with a clock are rated: add one (/play chess @bob 5+3 rated), or leave out “rated”.
error-rated-team = Games of more than two players are never rated; leave out “rated”.
rating-none = { $player } has no rated games yet.
rating-header = Ratings of { $player }:
rating-line = { $variant }: { $rating } (RD { $rd }) · { $games } { $games ->
        [one] game
       *[other] games
    }: { $wins } won, { $draws } drawn, { $losses } lost · best { $best }
leaderboard-header = { $variant }: the best rated players of this chat (page { $page } of { $pages })
leaderboard-header-global = { $variant }: the best rated players of the whole platform (page { $page } of { $pages })
leaderboard-line = { $place }. { $player } { $rating } ({ $games } { $games ->
        [one] game
       *[other] games
    })
leaderboard-next = Next page: /leaderboard { $next }
leaderboard-empty = Nobody here has a settled { $variant } rating yet: ratings are listed after the first few rated games. /leaderboard { $variant } global shows the whole platform.
leaderboard-empty-global = Nobody has a settled { $variant } rating yet: ratings are listed after the first few rated games.
error-leaderboard-page = There is no page { $page }: the list has { $pages ->
        [one] one page
       *[other] { $pages } pages
    }.
stats-none = { $player } has not finished a game yet.
stats-header = { $player }: { $games } { $games ->
        [one] game
       *[other] games
    } — { $wins } won, { $draws } drawn, { $losses } lost.
stats-variant = { $variant }: { $games } — { $wins } won, { $draws } drawn, { $losses } lost
stats-streak = Winning streak: { $current } now, { $best } at best.
command-rating = Ratings per variant: yours, or someone's (@user)
command-leaderboard = The best rated players of this chat (or global), by variant
command-stats = Games, results by variant and winning streaks: yours or someone's

# tournaments
command-tournament = Tournaments in this chat: new, join, leave, pause, standings, start, add, cancel, trf
tournament-usage = Tournaments: /tournament new <swiss|roundrobin|double|knockout|arena> <variant> <clock> [rounds] [in <minutes> | at <HH:MM> UTC] [rated] — for example /tournament new swiss chess 3+2 5 in 10, or /tournament new arena chess 3+0 30 at 20:00 (a knockout's number is the games of a match, add armageddon for an Armageddon tie-break; an arena's is its minutes). Then /tournament join (or the Join button; a Swiss or an arena under way takes newcomers too), /tournament leave, /tournament pause (sit out the next rounds; join again to come back), /tournament standings, /tournament start (start now), /tournament add computer level 3 (its creator, before the start), /tournament cancel, /tournament trf (the FIDE report file); in an arena game, /berserk before your first move halves your clock and drops its increment, for a point more on a win. A player who does not start a game in two rounds is withdrawn. A tournament of its own chat only.
tournament-in-private = Tournaments are played in a group chat: announce or join one there.
tournament-unknown-format = “{ $format }” is no tournament format: swiss, roundrobin, double (a double round robin), knockout or arena.
tournament-two-players-only = Tournaments are for games of two players on one board.
tournament-needs-clock = A tournament needs a clock: add one, such as 3+2, 10+5 or 1d.
tournament-bad-rounds = A Swiss has 1 to { $max } rounds.
tournament-bad-start = A tournament starts within { $max } minutes.
tournament-too-many = This chat already has as many tournaments as it may (at most { $max } open or running at once).
tournament-format-swiss = Swiss
tournament-format-round-robin = Round robin
tournament-format-double-round-robin = Double round robin
tournament-rounds = { $count ->
        [one] { $count } round
       *[other] { $count } rounds
    }
tournament-rounds-robin = everyone plays everyone
tournament-announced = 🏆 { $creator } announces tournament { $id }: { $format }, { $variant }, { $clock }, { $rounds }, { $rated ->
        [yes] rated
       *[no] casual
    }. It starts in { $minutes } min. Press Join or type /tournament join to play.
button-tournament-join = Join
tournament-unknown = There is no tournament { $id } in this chat.
tournament-none = This chat has no tournament now: /tournament new announces one.
tournament-which = This chat has several tournaments: add the id ({ $ids }).
tournament-not-open = Tournament { $id } is not taking entries.
tournament-already-in = You are already in tournament { $id }.
tournament-full = The tournament is full (at most { $max } players).
tournament-joined = { $player } is in tournament { $id } (players: { $count }).
tournament-not-in = You are not in tournament { $id }.
tournament-left = { $player } leaves tournament { $id }.
tournament-not-yours = Only { $creator }, who announced it, or a chat admin may do that.
tournament-over = Tournament { $id } is over.
tournament-cancelled = Tournament { $id } is cancelled ({ $player }). Games under way are played out as ordinary games.
tournament-trf = Tournament { $id } as a FIDE tournament report file (TRF), for any pairing program to check.
tournament-standings = Tournament { $id }: standings after round { $round }
tournament-final-standings = Tournament { $id }: final standings
tournament-no-players = Nobody has joined yet.
tournament-tb-buchholz = BH
tournament-tb-buchholz-cut1 = BH-1
tournament-tb-sonneborn-berger = SB
tournament-tb-direct = DE
tournament-tb-wins = W
tournament-standing = { $place }. { $player } — { $points } ({ $tiebreaks })
tournament-standing-withdrawn = { $place }. { $player } (withdrawn) — { $points } ({ $tiebreaks })
tournament-too-few = Tournament { $id } is called off: too few players (it needs { $min }).
tournament-started = 🏆 Tournament { $id } begins: { $format }, { $variant }, { $clock }, { $rounds }, { $rated ->
        [yes] rated
       *[no] casual
    }; players: { $count }.
tournament-round = Round { $round } of { $rounds } (tournament { $id }):
tournament-board = Board { $board }: { $white } (white) – { $black } (black), game { $game }
tournament-board-result = Board { $board }: { $white } – { $black } { $score }
tournament-bye = { $player } has the bye (a point without a game).
tournament-sits-out = { $player } sits this round out.
tournament-round-how = Each game is played here as any game: white moves first. A player who makes no first move in time loses the game.
tournament-round-over = Round { $round } of tournament { $id } is over:
tournament-winner = 🏆 Tournament { $id } is over. The winner: { $player }!
tournament-format-knockout = Knockout
tournament-knockout-terms = { $count ->
        [one] one-game matches
       *[other] matches of { $count } games
    }, { $armageddon ->
        [yes] an Armageddon game if level
       *[no] decisive games if level
    }
tournament-bad-match = A knockout match has 1 to { $max } games.
tournament-knockout-round = Knockout round { $round } of { $rounds }, game { $game } of the matches (tournament { $id }):
tournament-knockout-byes = Through to the next round without a game: { $players }.
tournament-knockout-place = { $place }. { $players }
tournament-knockout-still-in = Still in: { $players }
tournament-format-arena = Arena
tournament-arena-terms = { $minutes } min: whoever is free is paired at once; a win 2, a draw 1, double after two wins in a row
tournament-bad-arena = An arena lasts 1 to { $max } minutes.
tournament-arena-pairings = Arena { $id }, new pairings ({ $minutes } min left):
tournament-arena-standing = { $place }. { $player } — { $points }{ $fire ->
        [yes] { " " }🔥
       *[no] {""}
    }

# Enochian doubled thrones (issue 31)
error-fen-bad-pair = This position does not read: two pieces stand on { $square }, and only a throne at the start of Enochian chess holds two (its king and one more piece of that army, written like (KB)).

# Chat settings: /settings board white|side-to-move (issue 32, item 3)
command-settings = This chat's settings: the board's orientation, new or edited boards
settings-board-white = white always at the bottom
settings-board-side-to-move = the player to move at the bottom
settings-current = This chat's settings:
    board: { $board } (/settings board white or /settings board side-to-move);
    boards: { $boards } (/settings boards new or /settings boards edit).
    The chat's admins change them.
settings-boards-new = a new message each turn
settings-boards-edit = one message per game, edited each turn (on Telegram; nobody is notified of an edit)
settings-boards-set = Boards of games in this chat: now { $boards }.
settings-board-set = Boards posted in this chat after each turn now have { $board }.
error-settings-usage = Settings: /settings board white (white always at the bottom) or /settings board side-to-move (the player to move at the bottom); /settings boards new (a new board each turn) or /settings boards edit (one board message per game, edited); /settings shows them.
error-settings-admin = Only the chat's admins can change its settings (on Discord: Manage Server; on Telegram: administrators).

# tournaments: withdrawal, pause, the computer, late entries, berserk, a start at a time (issue 29, stop 41)
command-berserk = Arena: halve your own clock (no increment) before your first move, for a point more on a win
tournament-starts-at = Start at { $time } UTC (in { $minutes } min).
tournament-bad-time = After “at” comes a time of day, UTC, such as at 20:00.
tournament-joined-late = { $player } joins tournament { $id }, under way: { $arena ->
        [yes] paired as soon as someone is free.
       *[no] paired from round { $round } on, with no points for the rounds before.
    }
tournament-back = { $player } is back in tournament { $id }: { $arena ->
        [yes] paired as soon as someone is free.
       *[no] paired again from round { $round } on.
    }
tournament-too-late = Tournament { $id } pairs no more rounds: it is too late to join.
tournament-no-pause = Only a Swiss or an arena lets a player sit out; in a round robin or a knockout, /tournament leave withdraws you.
tournament-pause-not-running = Tournament { $id } is not under way: before its start, /tournament leave takes your entry back.
tournament-paused = { $player } sits out tournament { $id } from the next pairing on (no points, no forfeit). /tournament join brings you back.
tournament-bad-level = The computer plays at level 1 to 8: /tournament add computer level 3.
tournament-computer-in = { $player } is already in tournament { $id }.
tournament-computer-added = { $player } (the computer, level { $level }) is in tournament { $id } (players: { $count }); it plays its games as in any game against it.
tournament-withdrawn-absent = Tournament { $id }: { $players } { $count ->
        [one] did not start a game in two rounds and is withdrawn
       *[other] did not start a game in two rounds and are withdrawn
    }.{ $back ->
        [yes] { " " }/tournament join brings a player back.
       *[no] {""}
    }
tournament-berserk-no-game = Berserk is for a game of an arena tournament under way, before your first move in it.
tournament-berserk-already = You have already berserked in this game.
tournament-berserk-too-late = Berserk only before your first move in the game.
tournament-berserked = ⚔ { $player } berserks in game { $game }: their clock is halved, to { $clock }, with no increment. A win is worth a point more.
tournament-round-resumed = Round { $round } of tournament { $id }: its games are started (the pairing stored before an interruption).

# Challenges answered late or by strangers (issue 32, item 8)
error-challenge-taken = Challenge { $id } was already taken by { $players }; the game is under way.
error-decline-open = Challenge { $id } is open to anyone: there is nothing for you to decline, and only { $challenger } can withdraw it.
draw-offered-computer = { $player } offers { $opponent } a draw in game { $id }; the computer answers by itself.

# Setup lists in Russian count the pawns (issue 32, item 8)
setup-pawns = { $count ->
        [one] one pawn
       *[other] { $count } pawns
    }
setup-pieces-and-pawns = { $pieces } and { $pawns }
