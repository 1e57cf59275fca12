# Kodex — сообщения на русском. Каждый ключ из en.ftl должен быть и здесь.

## Языки
lang-set = Язык: русский.
lang-chat-set = Язык этого чата теперь { $lang }.
lang-name-en = английский
lang-name-ru = русский
lang-current = Ваш язык: { $lang }. Сменить: /lang en или /lang ru (/lang chat ru задаёт язык чата).
error-bad-lang = Я говорю по-английски (en) и по-русски (ru): /lang en или /lang ru.
error-lang-chat-admin = Язык чата меняют только его администраторы (в Discord — право «Управлять сервером», в Telegram — администраторы группы). Ваш собственный язык: /lang en или /lang ru.

## Общие ошибки
error-unknown-command = Я не знаю команды { $command }. Список команд: /help.
error-conflict = Кто-то изменил эту партию в тот же момент; ничего не изменено. Попробуйте ещё раз.
error-internal = У меня что-то сломалось; ничего не изменено. Попробуйте позже.
error-stale-button = Эта кнопка больше не действует.
error-not-your-button = Эта кнопка не для вас.
error-variant-gone = Партию { $id } нельзя ни показать, ни продолжить: её вариант больше недоступен. Она скрыта, пока оператор не вернёт этот вариант.
error-variant-changed = Партию { $id } нельзя ни показать, ни продолжить: определение её варианта изменилось после начала партии. Она скрыта, пока оператор не вернёт определение, по которому она началась.
error-corrupt-game = Партию { $id } не удаётся загрузить; оператор предупреждён.
error-line-too-long = Сообщение слишком длинное; я его пропустил.

## Поиск партий
error-no-such-game = Партии «{ $id }» нет. Ваши партии: /games.
error-too-many-unknown-ids = Вы назвали слишком много номеров, под которыми нет партий. Подождите { $minutes ->
    [one] { $minutes } минуту
    [few] { $minutes } минуты
   *[other] { $minutes } минут
}, прежде чем снова называть партию по номеру; свои партии можно называть и сейчас.
error-not-your-game = Вы не играете в партии { $id }.
error-no-game = У вас здесь нет идущей партии. Начните её: /play <вариант> [@соперник].
error-which-game = У вас здесь несколько партий; добавьте к команде номер партии (например, { $example }):
    { $games }

## Вызовы
error-play-usage = Как вызвать: /play <вариант> [@соперник] [контроль] [цвет] — например, /play atomic @bob 3+2 white. Варианты: /variants.
error-play-in-private = Вызовы делаются в общем чате, где их видит соперник.
error-unknown-variant = Я не знаю варианта «{ $variant }». Список: /variants.
error-bad-clock = «{ $clock }» — не контроль времени. Можно: none, bullet, blitz, rapid, минуты+добавка вроде 3+2 или дни на ход вроде 1d.
error-no-such-color = В варианте { $variant } нет цвета «{ $color }»: выберите { $colors } или случайно.
error-bad-level = Уровень компьютера — число от 1 до 8, а не «{ $level }».
error-self-challenge = Нельзя вызвать самого себя.
error-challenge-elsewhere = Вызов { $id } открыт для чата, где он сделан: примите его там.
error-too-many-challenges = У вас уже { $max ->
    [one] { $max } открытый вызов
    [few] { $max } открытых вызова
   *[many] { $max } открытых вызовов
}: дождитесь ответов или отмените один (/decline).
error-too-many-games = Вы уже играете { $max ->
    [one] { $max } партию
    [few] { $max } партии
   *[many] { $max } партий
}: закончите одну, прежде чем начинать новую.
error-not-a-challenge = { $id } — не вызов, ждущий ответа.
error-own-challenge = Нельзя принять собственный вызов. /decline отзывает его.
error-challenge-not-for-you = Вызов { $id } адресован не вам.
error-no-challenge = Здесь нет вызова для вас.
error-challenge-gone = Вызов { $id } уже не действует.
challenge-plays-white = { $player } играет белыми
challenge-plays-black = { $player } играет чёрными
challenge-plays-red = { $player } играет красными
challenge-plays-yellow = { $player } играет жёлтыми
challenge-plays-blue = { $player } играет синими
challenge-colors-random = цвета по жребию
challenge-direct = { $challenger } вызывает { $opponent } на партию: { $variant } ({ $clock }, { $colors }). Партия { $id }: { $opponent }, /accept или /decline.
challenge-open = { $challenger } ищет соперника: { $variant } ({ $clock }, { $colors }). Партия { $id }: любой может ответить /accept.
challenge-declined = { $player } отклоняет вызов { $id }.
challenge-withdrawn = { $player } отзывает вызов { $id }.
challenge-expired = Вызов { $id } от { $challenger } истёк без ответа.
error-not-a-team-game = { $variant } — игра вдвоём: вызовите одного соперника, /play <вариант> @соперник.
error-two-boards = { $variant } играются на двух досках, а их бот пока не проводит: правила есть в /rules и в движке, сама игра на двух досках появится позже.
error-team-twice = Кто-то назван дважды: на каждом месте должен быть другой игрок.
error-team-size = В игре { $variant } мест партнёров: { $partners }, мест соперников: { $opponents }. /play <вариант> @партнёр vs @соперник @соперник.
error-seat-yours = Вы уже сидите в партии { $id }; она начнётся, когда займут все места.
error-seat-taken = Место { $seat } занято: { $player }. Выберите свободное.
error-no-open-seat = Все места партии { $id } заняты или за кем-то оставлены.
challenge-teams = { $challenger } предлагает командную партию: { $variant } ({ $clock }). Партия { $id }:
seat-taken = { $player } занимает место { $seat } в партии { $id }:
seat-team = Команда { $team }: { $seats }
seat-line = место { $seat } ({ $color }) { $player }
seat-open = свободно
seat-invited = { $player } (приглашён)
seat-how = Займите место кнопкой или командой /accept { $id } (приглашённый занимает своё); партия начнётся, когда займут все места.
button-take-seat = Занять место { $seat } ({ $color })
button-accept = Принять
button-decline = Отклонить

## Лобби: открытые заявки, игра сейчас, приглашения
command-lobby = Открытые партии: вызовы этого чата и общие заявки
command-playnow = Играть сейчас: войти в лучшую открытую партию или подать заявку
command-invite = Пригласить друга: одноразовый код (в Telegram — ссылка)
command-join = Принять приглашение друга по его коду
challenge-public = { $challenger } ищет соперника на всей платформе: { $variant } ({ $clock }, { $colors }). Партия { $id }: любой может ответить /accept — здесь или из /lobby в любом чате.
seek-published = Такой партии сейчас никто не ждёт, поэтому { $challenger } подаёт заявку: { $variant } ({ $clock }, { $colors }). Партия { $id } видна в /lobby любого чата; когда её примут, вы узнаете здесь.
offer-rated = рейтинговая
offer-casual = товарищеская
lobby-header = { $count ->
    [one] { $count } открытая партия:
    [few] { $count } открытые партии:
   *[other] { $count } открытых партий:
}
lobby-line-here = { $id } · { $variant } · { $clock } · { $rated } · { $player } ({ $rating }) · в этом чате
lobby-line = { $id } · { $variant } · { $clock } · { $rated } · { $player } ({ $rating })
lobby-more = … и ещё { $count }: /lobby <вариант> сужает список.
lobby-how = Примите кнопкой или /accept <партия>; /playnow сам выберет лучшую.
lobby-empty = Открытых партий сейчас нет. /playnow подаёт заявку, которую может принять любой; /play <вариант> вызывает этот чат.
button-accept-offer = Принять { $id }
button-withdraw = Отозвать
invite-terms = { $variant }, { $clock }, { $rated }
invite-link = Ваше приглашение ({ $terms }): отправьте другу эту ссылку — { $link } — кто первым откроет её и нажмёт «Start», сыграет с вами в личном чате со мной. В общем с нами чате можно и набрать /join { $code }. Приглашение действует { $minutes ->
    [one] { $minutes } минуту
    [few] { $minutes } минуты
   *[other] { $minutes } минут
}.
invite-code = Ваше приглашение ({ $terms }): передайте другу код { $code }; кто первым наберёт /join { $code } в любом чате или личных сообщениях, где есть я, сыграет с вами. Приглашение действует { $minutes ->
    [one] { $minutes } минуту
    [few] { $minutes } минуты
   *[other] { $minutes } минут
}.
error-public-open-only = В лобби попадает только открытый вызов на двоих: не называйте соперника (партии вчетвером играют в своём чате).
error-invite-two-players = Приглашения — для партий на двоих; партию вчетвером вызывают в её чате командой /play.
error-too-many-seeks = У вас уже { $max ->
    [one] { $max } открытая заявка
    [few] { $max } открытые заявки
   *[other] { $max } открытых заявок
}: отзовите одну (/decline <партия>) или дождитесь, пока её примут.
error-too-many-invites = У вас уже { $max ->
    [one] { $max } неиспользованное приглашение
    [few] { $max } неиспользованных приглашения
   *[other] { $max } неиспользованных приглашений
}: отзовите одно (/decline <партия>) или дождитесь, пока его примут или оно истечёт.
error-join-usage = Наберите код приглашения: /join <код>.
error-no-invitation = Приглашения с кодом «{ $code }» нет. Уточните код у того, кто его прислал.
error-invitation-used = Приглашение «{ $code }» уже использовано, отозвано или истекло.
error-own-invitation = Это ваше собственное приглашение: передайте код другу.
button-share-invite = Опубликовать здесь
button-join = Сыграть
invite-posted = { $player } приглашает сыграть ({ $terms }): кто первым нажмёт «Сыграть» (или наберёт /join { $code }), тот и играет.
command-notify = Личная лента: новости ваших партий из других чатов, в личку (вкл. или выкл.)
ticker-on = Лента включена: если вас вызовут, попросят ответить на предложение или в партии по переписке настанет ваш ход в другом чате, чем тот, где вы писали последним, я сообщу вам лично. /notify off её выключает.
ticker-on-telegram = Лента включена: если вас вызовут, попросят ответить на предложение или в партии по переписке настанет ваш ход в другом чате, чем тот, где вы писали последним, я сообщу вам лично — когда вы начнёте со мной личный чат (только тогда Telegram разрешает ботам писать). /notify off её выключает.
ticker-off = Лента выключена: новости ваших партий остаются в их чатах. /notify on включает её снова.
command-review = Разбор компьютером главных ошибок законченной партии
review-header = Партия { $id }, разбор компьютера (короткий расчёт каждой позиции):
review-clean = Крупных ошибок нет: по оценке компьютера ни один ход не стоил больше полутора пешек.
review-line = { $played } { $cost }; лучше было { $better }.
review-cost-pawns = стоит примерно { $pawns } пешки
review-cost-piece = стоит примерно фигуры
review-cost-rook = стоит примерно ладьи
review-cost-queen = стоит примерно ферзя
review-cost-missed-mate = упускает форсированный мат
review-cost-allowed-mate = допускает форсированный мат
error-review-not-over = Партия { $id } ещё не закончена: разбор — после её конца.
error-review-two-players = Разбор есть для партий двоих на одной доске.
ticker-news = Из партии { $id }, в другом чате:
    { $news }
    (/notify off отключает такие сообщения.)

## Игра
game-started = Партия { $id } началась: { $variant }, { $white } ({ $white_color }) против { $black } ({ $black_color }), { $clock }.
chess960-position = Начальная позиция номер { $number }.
fog-started = Туман войны: присылайте ходы мне в личный чат; там же каждый получает свою доску.
turn = { $id } · ход { $number } · ходит { $player } ({ $color })
moved = { $id }: ход { $player }: { $san }.
game-title = { $variant }: { $white } — { $black } · { $id }
game-gif = Партия { $id }, ход за ходом.
game-analyse = Разобрать партию на lichess: { $url }
you-moved = { $id }: вы сыграли { $san }.
your-turn = { $id } · ход { $number } · ваш ход.
their-turn = { $id } · ход { $number } · ждём соперника.
you-are-in-check = Вам шах!
kriegspiel-started = Кригшпиль: каждый видит только свои фигуры. Присылайте ходы мне в личный чат; я судья и объявляю вам обоим и здесь ходы, взятия, шахи, пешечные попытки и невозможные попытки.
referee-moved = { $id }: ход { $player } ({ $color }) сделан.
referee-capture = { $id }: { $player } ({ $color }) берёт на { $square }.
referee-check = { $id }: шах { $direction }.
referee-double-check = { $id }: двойной шах — { $first } и { $second }.
check-direction = { $direction ->
    [rank] по горизонтали
    [file] по вертикали
    [long] по длинной диагонали
    [short] по короткой диагонали
   *[knight] конём
}
referee-pawn-tries = { $id }: у { $player } ({ $color }) { $count ->
    [one] { $count } пешечная попытка
    [few] { $count } пешечные попытки
   *[many] { $count } пешечных попыток
}.
referee-impossible = { $id }: { $player } ({ $color }): попытка невозможного хода.
you-impossible = { $id }: «{ $move }» — невозможно. Ход по-прежнему ваш — попробуйте другой.
color-white = белые
color-black = чёрные
clock-preset-bullet = пуля
clock-preset-blitz = блиц
clock-preset-rapid = рапид
clock-preset-classical = классика
clock-none = без часов
clock-phrase = часы: { $clock }
clock-per-move = { $days ->
    [one] { $days } день на ход
    [few] { $days } дня на ход
   *[other] { $days } дней на ход
}
error-move-usage = Как ходить: /move <ход>, например /move Кf3 (русские буквы, английские вроде Nf3 или UCI вроде g1f3).
error-move-too-long = Это слишком длинно для хода.
error-game-over = Партия { $id } окончена.
error-fog-move-in-public = Партия { $id } идёт в тумане: присылайте ход мне в личный чат, а не сюда.
error-not-your-turn = Сейчас не ваш ход в партии { $id }.
error-move-unparseable = «{ $move }» — не ход, который я понимаю. Попробуйте запись вроде Кf3, exd5, O-O, e8=Ф (или Nf3, e8=Q) либо UCI вроде g1f3.
error-move-illegal = «{ $move }» — недопустимый ход в этой позиции.
error-move-illegal-because = «{ $move }» — недопустимый ход в этой позиции: { $reason }.
error-move-illegal-because-listed = «{ $move }» — недопустимый ход в этой позиции: { $reason }. { $legal }
error-move-illegal-listed = «{ $move }» — недопустимый ход в этой позиции. { $legal }
refusal-legal-moves = { $count ->
    [1] Единственный возможный ход («{ $piece }»): { $moves }.
    [one] Возможные ходы («{ $piece }»): { $moves }.
    [few] Возможные ходы («{ $piece }»): { $moves }.
   *[many] Возможные ходы («{ $piece }»): { $moves }.
}
refusal-no-piece = у вас нет фигуры «{ $piece }»
refusal-no-piece-on = на { $square } нет вашей фигуры
refusal-none-reaches = ни одна ваша фигура «{ $piece }» не может пойти на { $square }
refusal-own-piece-there = на { $square } стоит ваша же фигура
refusal-promotion = фигура «{ $piece }» не может там превратиться в эту фигуру
refusal-blocked = путь фигуры «{ $piece }» на { $square } преграждён
refusal-citadel = фигура «{ $piece }» не может войти в цитадель { $square }
refusal-pinned = фигура «{ $piece }» связана: её ход открыл бы вашего короля
refusal-into-check = на { $square } фигура «{ $piece }» оказалась бы под шахом
refusal-in-check = вашему королю шах, а этот ход от него не защищает
refusal-castle-not-in-game = в этой игре нет рокировки
refusal-castle-no-right = право на эту рокировку потеряно (король или эта ладья уже ходили)
refusal-castle-blocked = между королём и ладьёй или там, куда они встают, стоят фигуры
refusal-castle-in-check = рокироваться под шахом нельзя
refusal-castle-through-check = король не может пройти через битое поле или встать на него
refusal-not-in-hand = у вас в запасе нет фигуры «{ $piece }»
refusal-no-drops = в этой игре фигуры из запаса не выставляют
refusal-must-capture = бить обязательно, а у вас есть взятие
refusal-palace = фигура «{ $piece }» не может покинуть дворец
refusal-gives-check = этот ход дал бы шах, а шахи в этой игре запрещены
refusal-facing = генералы стоят друг против друга: ход должен их разделить, или пропустите ход
refusal-drop-mate = фигурой «{ $piece }» из запаса здесь нельзя ставить мат
refusal-needs-screen = фигура «{ $piece }» ходит, только перепрыгивая ровно через одну фигуру, а на пути к { $square } такой нет
piece-name = { $key ->
    [king] король
    [queen] ферзь
    [rook] ладья
    [bishop] слон
    [knight] конь
    [pawn] пешка
    [elephant] слон
    [general] генерал
    [war-machine] военная машина
    [war-engine] военная машина
    [vizier] визирь
    [giraffe] жираф
    [camel] верблюд
    [picket] пикет
    [prince] принц
    [adventitious-king] добавочный король
    [pawn-of-pawns] пешка пешек
    [pawn-of-war-engines] пешка военной машины
    [pawn-of-camels] пешка верблюда
    [pawn-of-elephants] пешка слона
    [pawn-of-generals] пешка генерала
    [pawn-of-kings] пешка короля
    [pawn-of-viziers] пешка визиря
    [pawn-of-giraffes] пешка жирафа
    [pawn-of-pickets] пешка пикета
    [pawn-of-knights] пешка коня
    [pawn-of-rooks] пешка ладьи
    [rook-s-pawn] пешка ладьи
    [queen-s-pawn] пешка ферзя
    [knight-s-pawn] пешка коня
    [bishop-s-pawn] пешка слона
    [horse] конь
    [guard] охранник
    [chariot] колесница
    [cannon] пушка
    [soldier] солдат
    [counsellor] советник
    [marshal] маршал
    [cardinal] кардинал
    [maharajah] махараджа
    [scientist] учёный
    [rocket] ракета
    [white-whale] белый кит
    [dolphin] дельфин
    [dolphin-on-the-far-rank] дельфин на последней линии
    [porpoise] морская свинка
    [humpback] кит-горбач
    [grey-whale] серый кит
    [narwhal] нарвал
    [blue-whale] голубой кит
    [killer-whale] кит-убийца
    [crowned-queen] коронованный ферзь
    [crowned-rook] коронованная ладья
    [crowned-bishop] коронованный слон
    [crowned-knight] коронованный конь
    [crowned-pawn] коронованная пешка
   *[other] { $name }
}
error-move-ambiguous = «{ $move }» неоднозначен; вы имели в виду { $candidates }?
error-kriegspiel-move-in-public = Партия { $id } — кригшпиль: присылайте ход мне в личный чат, а не сюда.
error-kriegspiel-no-such-move = «{ $move }» — такой ход ваши фигуры сделать не могут, что бы ни стояло у соперника.

## Предложения
draw-offered = { $player } предлагает ничью в партии { $id }. { $opponent }: /draw — согласиться, /nodraw — отказаться.
draw-declined = { $player } отклоняет ничью в партии { $id }.
error-draw-already-offered = Вы уже предложили ничью; предложение нельзя отозвать.
error-draw-offered-by-team = Ваша команда уже предложила ничью в партии { $id }; отвечает другая команда.
error-draw-already-agreed = Вы уже согласились на ничью в партии { $id }; ещё должен согласиться ваш партнёр.
error-no-draw-offer = Вам не предлагали ничью. /draw — предложить.
error-offer-not-withdrawable = Предложение нельзя отозвать; ответ за соперником.
takeback-requested = { $player } просит вернуть свой последний ход в партии { $id }. { $opponent }: /takeback — разрешить, /notakeback — отказать.
takeback-refused = { $player } не разрешает вернуть ход в партии { $id }.
takeback-done = { $id }: ход возвращён.
error-takeback-hidden = В партиях со скрытой информацией ходы не возвращаются.
error-takeback-nothing = Вам пока нечего возвращать.
error-takeback-already = Вы уже попросили вернуть ход; ответ за соперником.
error-no-takeback = Никто не просит вас вернуть ход.
error-abort-too-late = Оба уже сходили; прервать партию нельзя. /resign — сдаться.
game-aborted = { $player } прерывает партию { $id }.
resign-confirm = Сдать партию { $id } против { $opponent }? Отменить это нельзя.
button-resign = Сдаться
button-play-on = Играть дальше
button-setup-random = Случайно
button-setup-ready = Готов
button-show-board = Показать доску
button-offer-draw = Предложить ничью
button-takeback = Вернуть ход
resign-kept = Партия { $id } продолжается.
error-resign-question-lapsed = Этот вопрос о партии { $id } устарел: вы с тех пор сделали ход. Если вы хотите сдаться, отправьте /resign ещё раз.

## Результаты
result-win = { $id }: { $result } — победа { $side ->
        [white] белых
        [black] чёрных
        [red] красных
        [blue] синих
        [yellow] жёлтых
       *[other] стороны «{ $color }»
    } ({ $winner }): { $reason }.
result-draw = { $id }: ½–½ — ничья: { $reason }.
result-aborted = { $id }: партия прервана.
reason-checkmate = мат
reason-stalemate = пат
reason-repetition = троекратное повторение
reason-fifty-moves = пятьдесят ходов без взятий и ходов пешкой
reason-insufficient-material = недостаточно материала для мата
reason-exploded-king = король взорван
reason-three-checks = третий шах
reason-hill = король на вершине горы
reason-race = король дошёл до последней горизонтали
reason-no-pieces = не осталось фигур
reason-no-moves = не осталось ходов
reason-resign = { $loser } сдаётся
reason-timeout = у { $loser } кончилось время
reason-timeout-draw = время вышло, но у соперника нет материала для мата
reason-agreement = по соглашению
reason-aborted = партия прервана
reason-other = партия окончена

## Расстановка
setup-started = Партия { $id } расставляется: { $variant }, { $white } (белые) против { $black } (чёрные), { $clock }. Каждый присылает мне свою расстановку в личный чат; часы пойдут, когда оба будут готовы.
setup-deadline = Время на расстановку: { $left }; кто не успеет, получит случайную расстановку.
setup-instructions = { $id }: расставьте своё войско ({ $color }) здесь, в личном чате. Ставьте фигуры (Крe1 Фd1 e2 или Ke1 Qd1 e2; повторная постановка единственной фигуры переставляет её) или пришлите свою половину в FEN со своей стороны (RNBQKBNR/PPPPPPPP), или: случайно (random: король прикрыт, до первого хода не проиграть), прошлая (last — ваша прошлая расстановка в этом варианте), очистить (clear), доска (board). Затем пришлите «готов» (ready) — готовую расстановку изменить нельзя.
setup-state-missing = { $id } · ваша расстановка ({ $color }): ещё поставить { $pieces }.
setup-state-complete = { $id } · ваша расстановка ({ $color }) полна: пришлите «готов», чтобы подтвердить.
setup-state-invalid = { $id } · ваша расстановка ({ $color }): { $reason }
setup-state-ready = { $id } · ваша расстановка ({ $color }) готова; ждём соперника.
setup-state-final = { $id } · ваша расстановка ({ $color }) окончательна.
setup-random = Поставлена случайная расстановка.
setup-last = Поставлена ваша прошлая расстановка в этом варианте.
setup-player-ready = { $id }: расстановка { $player } готова.
setup-timeout = { $id }: время на расстановку вышло; случайная расстановка для: { $players }.
setup-timeout-you = { $id }: время на расстановку вышло; вам поставлена случайная расстановка.
setup-revealed = { $id }: обе расстановки открыты.
setup-kept-secret = { $id }: обе стороны расставлены; каждый по-прежнему видит только свои фигуры.
setup-public-started = Партия { $id } расставляется: { $variant }, { $white } (белые) против { $black } (чёрные), { $clock }. Игроки ставят фигуры здесь, по одной, по очереди: например Крe1 или Ke1 (e2 — пешка), или «случайно». Часы пойдут, когда будут расставлены все фигуры.
setup-public-turn = { $id }: ставит { $player } ({ $color }): { $pieces }.
setup-public-deadline = Время на этот ход расстановки: { $left }; потом оставшиеся фигуры встанут случайно.
setup-public-placed = { $id }: { $player } ставит { $placement }.
setup-public-placed-random = { $id }: { $player } — случайно: { $placement }.
setup-public-timeout = { $id }: у { $player } вышло время на расстановку; остальные фигуры встанут случайно.
setup-public-done = { $id }: все фигуры расставлены; игра начинается.
error-setup-not-your-turn = { $id }: сейчас фигуру ставит { $player }.
setup-error-one-at-a-time = Фигуры ставят по одной, по очереди: пришлите одну расстановку, например Крe1, или «случайно».
error-setup-in-public = Партия { $id } расставляется втайне: пришлите расстановку мне в личный чат, не сюда.
error-setup-too-long = Слишком длинно для расстановки.
error-setup-over = Партия { $id } больше не расставляется.
error-setup-ready = { $id }: ваша расстановка готова, изменить её уже нельзя.
error-setup-no-last = У вас нет прежней расстановки в этом варианте.
error-setup-not-ready = Ещё не готово: { $reason }
setup-error-nothing-to-place = Вам нечего расставлять.
setup-error-unreadable = «{ $word }» — не постановка: пишите фигуры как Крe1 Фd1 e2 или половину доски в FEN, например RNBQKBNR/PPPPPPPP.
setup-error-not-in-army = В вашем войске нет фигуры { $piece }.
setup-error-all-placed = Все { $piece } уже поставлены; «очистить» начинает заново.
setup-error-outside-zone = { $square } вне вашей зоны расстановки (горизонтали { $from }–{ $to }).
setup-error-pawn-rank = Пешка не может стоять на { $square } (пешки: горизонтали { $from }–{ $to }).
setup-error-occupied = Поле { $square } занято.
setup-error-missing = ещё поставить { $pieces }.
setup-error-bishops-same-colour = Слоны должны стоять на полях разного цвета.
setup-error-pawns-share-file = Ровно одна пешка на вертикали (две на вертикали { $file }).
time-jump = { $id }: { $player } путешествует во времени: { $jump } (осталось зарядов: { $charges }).
error-jump = Прыжок { $jump } невозможен: { $reason }.
error-jump-alone-then-move = Вы прыгнули: теперь сделайте ход в новой линии времени.
jump-no-charges = у вас не осталось зарядов времени
jump-too-far-back = прыжок возвращает { $max ->
    [1] только на один ваш ход
    [one] на 1–{ $max } ваш ход
    [few] на 1–{ $max } ваших хода
   *[many] на 1–{ $max } ваших ходов
} назад
jump-not-that-many-moves = в этой линии времени вы сделали только { $made ->
    [one] { $made } свой ход
    [few] { $made } своих хода
   *[many] { $made } своих ходов
}
jump-not-your-piece = на этом поле нет вашей фигуры
jump-king-cannot-travel = король не путешествует во времени
jump-wrong-piece = на этом поле стоит другая фигура
jump-own-piece-there = в прошлом на этом поле стоит ваша фигура
jump-king-there = в прошлом на этом поле стоит король
jump-same-square = фигура и тогда стояла на этом поле
jump-gives-check = её появление дало бы шах
jump-pawn-on-edge-rank = пешка не может появиться на первой или последней горизонтали
jump-no-move-after = после него у вас не было бы ни одного хода
jump-unreadable = прыжок пишется так: T-2:Кf3 (на 2 своих хода назад с конём, который сейчас на f3), затем ваш ход
jump-other = в этом варианте или в этот момент прыжок невозможен
timeline-caption = Партия { $id }: сверху доска сейчас, под ней { $count ->
    [1] оставленная линия времени в момент, когда её покинули
    [one] { $count } оставленная линия времени в момент, когда её покинули
    [few] { $count } оставленные линии времени в момент, когда их покинули
   *[many] { $count } оставленных линий времени в момент, когда их покинули
}.
timeline-none = В партии { $id } пока нет оставленных линий времени: вот доска сейчас.
timeline-label = Линия { $number } · { $move } { $jump }
error-timeline-not-time-travel = Партия { $id } — не путешествие во времени: линий времени в ней нет.
reason-setup-check = { $loser } под шахом ещё до первого хода
reason-king-capture = после расстановки короля можно было сразу взять
reason-mate-at-once = после расстановки можно было сразу дать мат
# Чанги: концы партии, решённые подсчётом очков.
reason-bikjang = генералы остались друг против друга (бикчан), решено по очкам
reason-passes = обе стороны пропустили ход, решено по очкам
reason-points = ничейная позиция решена по очкам
reason-bare-king = голый король
reason-promotion-goal = пешка дошла до последней горизонтали
reason-citadel = король вошёл в цитадель соперника
setup-error-gives-check = Фигура на { $square } нападала бы на короля соперника.
games-setup = идёт расстановка

## Сведения
games-none = У вас нет партий и вызовов. Начните: /play chess @друг
games-header = Ваши партии:
games-more = …и ещё { $count }.
games-challenge = вызов, ждёт ответа
games-your-move = ваш ход
games-their-move = ход соперника
error-pgn-hidden = Запись партии { $id } скрыта до её окончания.
error-rules-usage = Как узнать правила: /rules <вариант>, например /rules atomic. Список: /variants.
variants-header = Варианты (/rules <id> — правила):
variants-hidden-mark = {" "}(скрытая информация: ходы в личном чате)
variants-drops-mark = {" "}(постановка: взятые фигуры возвращаются в игру)
variants-family-codex = Кодекс (наш свод правил):
variants-family-hidden = Скрытая информация и тайная расстановка:
variants-family-historical = Исторические и сказочные игры:
variants-family-four = Игры вчетвером:
variants-family-lessons = Уроки (/learn):
variants-family-other = Другие:
## Обучение по шагам (/learn)
learn-header = Шахматы шаг за шагом — шесть уроков, в каждом новые фигуры:
learn-goal = { $lesson ->
    [1] ходите и бейте пешками; первая пешка на последней горизонтали побеждает.
    [2] к пешкам добавляются слоны; выводите своих слонов и запирайте чужих. Побеждает первая прошедшая пешка.
    [3] добавляются ладьи; берегите их и занимайте открытые линии. Побеждает первая прошедшая пешка.
    [4] кони и пешки; ищите кратчайший путь коня. Побеждает первая прошедшая пешка.
    [5] все фигуры, кроме короля и ферзя, действуют сообща. Побеждает первая прошедшая пешка.
   *[6] король, ферзь, слоны и центральные пешки: шах и мат.
}
learn-footer = Начать урок с другом: /learn 1 @друг — или с компьютером: /learn 1 computer. /rules lesson1 объясняет урок.
learn-learned = { $lesson ->
    [1] Урок 1 пройден: вы знаете, как ходят и бьют пешки и что упёршиеся пешки застревают.
    [2] Урок 2 пройден: вы знаете, как ходит слон, как открыть ему дорогу и как пешки защищают и запирают слонов.
    [3] Урок 3 пройден: вы знаете, как ходит ладья, и что выигрыш фигуры — ещё не выигрыш партии.
    [4] Урок 4 пройден: вы знаете прыжок коня буквой «Г».
    [5] Урок 5 пройден: лёгкие фигуры и ладьи у вас действуют вместе.
   *[6] Урок 6 пройден: вы знаете, что такое шах, мат и пат.
}
learn-next = Дальше: /learn { $lesson } (с @другом или с компьютером).
learn-done = Это был последний урок: теперь сыграйте полную партию — /play chess.

help =
    Kodex — шахматные варианты в чате. Первые шаги:
    /play <вариант> @друг — вызвать на партию (никого не назвали — принять может любой здесь); /play chess компьютер — сразу сыграть с компьютером.
    /accept или кнопка «Принять» — принять вызов. /playnow — партия с кем угодно, сразу.
    Пишите ход прямо в чат: e4, Кf3, O-O (или /move e4). /resign, /draw, /takeback — или кнопки под последней доской.
    /variants — во что можно играть; /rules <вариант> — как играют; /learn — шесть уроков от пешек до мата.
    /lang en — in English. У каждой команды есть и русское имя — его можно набирать везде: { $russian }.
    Подробнее: /help игра (контроль времени, цвет, компьютер, позиции, реванш, рейтинг) · /help ходы (запись ходов, предложения, кнопки, записи партий) · /help скрытые (туман войны, кригшпиль, расстановка, путешествие во времени) · /help вчетвером (игры вчетвером) · /help ещё (наблюдение, нотация, напоминания, язык).
help-play =
    Как начать партию:
    /play <вариант> [@соперник] [контроль] [цвет] — вызвать на партию (без соперника — любой может принять). Контроль: none, bullet (1+0), blitz (3+2), rapid (10+5), classical (30+20), 3+2, 15+10, 1d (дней на ход). Цвет: белые, чёрные, случайно (или white, black, random).
    /play <вариант> компьютер [уровень 1-8] — сразу сыграть с компьютером (по умолчанию уровень 3; в Discord — /play с ботом в качестве соперника). Он играет во все варианты (в скрытых — по своему обзору), отвечает на ничью и разрешает переходить.
    /accept, /decline — ответить на вызов (если их несколько — добавьте номер партии).
    /play <вариант> … fen:<FEN> — начать с позиции (FEN — в конце), например /play chess @bob fen:4k3/8/8/8/8/8/4P3/4K3 w - - 0 1; позиция записывается в PGN.
    /rematch [партия] (или кнопка «Реванш» под результатом) — та же партия снова, цвета наоборот; соперник принимает.
    /rating [@игрок], /leaderboard [вариант] [global] [страница], /stats [@игрок] — рейтинг; партии двоих с часами рейтинговые, если не «товарищеская».
    /learn — шесть уроков от пешек до мата; /learn 1 @друг или /learn 1 computer начинает урок.
    /playnow [вариант] [контроль] — войти в лучшую открытую партию здесь или в любом чате (ближайший рейтинг — первым) или подать заявку; /lobby [вариант] — открытые партии с кнопками «Принять»; /play … public выставляет вызов в лобби всех чатов.
    /invite [вариант] [контроль] [цвет] — одноразовый код для друга (в Telegram — ссылка), приходит лично вам; кто первым наберёт /join <код> где угодно, играет с вами. /notify on|off — новости ваших партий из других чатов, лично.
    /tournament new swiss chess 3+2 5 через 10 — турнир в этом чате (swiss — швейцарка, roundrobin — круговой, double — двухкруговой, knockout — на выбывание); /tournament join, leave, pause, standings, start, add computer, cancel, trf; /berserk в партии арены — вдвое меньше времени и без добавления за очко сверху при победе.
help-moves =
    Как играть:
    /move <ход> или просто напишите ход — русскими буквами (Кf3, O-O, e8=Ф), английскими (Nf3, e8=Q) или в UCI (g1f3). Если ход не принят, бот скажет почему.
    /resign (с подтверждением), /draw (предложить или принять ничью), /nodraw, /takeback (попросить или разрешить вернуть ход), /notakeback, /abort (пока оба не сходили).
    Под последней доской партии — кнопки «Предложить ничью», «Сдаться», «Вернуть ход», «Показать доску». В Discord параметры подсказывают ваши ходы, контроль времени и партии.
    /board, /games, /pgn [партия] (длинная запись приходит файлом), /review [партия] (главные ошибки законченной партии по мнению компьютера), /rules <вариант>, /variants.
    Чанги: фигуры стоят на пересечениях; чтобы пропустить ход, напишите пас (или поле генерала дважды, e2e2); ничья решается по очкам (/rules janggi).
help-hidden =
    Скрытые и другие особые игры:
    Туман войны: присылайте ходы мне в личный чат; после каждого хода там же приходит ваша доска.
    Кригшпиль: так же, но вы видите только свои фигуры; ход, невозможный в настоящей позиции, объявляется «невозможным», и вы ходите снова.
    Боевые шахматы и другие игры с расстановкой: после /accept пришлите мне расстановку в личный чат (Крe1 Фd1 e2, половина доски в FEN, «случайно», «готов»); в играх с поочерёдной расстановкой (шахматы Фролова, «Махараджа») ставьте здесь по одной фигуре по очереди (доска — раз в круг; «доска» покажет её). В kriegspielbattle расстановки тайны всю партию.
    Путешествие во времени: T-2:Кf3 e5 — прыжок на 2 своих хода назад с конём с f3 и ход e5 в новой линии (или прыжок, потом ход); по два заряда, /rules timetravel; /timeline [партия] — оставленные линии.
help-four =
    Игры вчетвером (bughouse, fourplayer, enochian):
    /play bughouse @партнёр vs @a @b 3+0 — названные до vs — партнёры; неназванные места свободны, их занимают кнопкой «Занять место».
    /resign — сдача за команду; ничья — только с согласия всех игроков другой команды.
    Шведские шахматы: взятые вами фигуры уходят в запас партнёра, постановка — К@f3; /partner <текст> — сообщение только партнёру.
    Четверные и енохианские шахматы: у кого нет хода, тот пропускает его автоматически.
    Енохианские шахматы: король на престоле партнёра — его игрок ходит обеими армиями; /exchange (/обмен) предлагает или принимает обмен взятыми королями, /noexchange — отказ; /retire (/выйти) — выйти из игры, передав армию партнёру.
help-more =
    Ещё:
    /watch <партия> (или кнопка «Смотреть») — следить за партией из другого чата (только общие сообщения); /unwatch <партия>.
    /notation ru|en|auto — буквы фигур в ходах, которые показываются лично вам (Кр Ф Л С К или K Q R B N).
    С часами бот один раз напомнит вам лично: при 10 % живых часов, при четверти времени на ход по переписке.
    /lang en|ru — ваш язык; /lang chat en|ru — язык сообщений в чате (для его администраторов).
    /settings — настройки этого чата; /settings доска белые — белые всегда внизу доски, которую я показываю после каждого хода, /settings доска ходящий — внизу тот, чей ход; /settings доски править — одно сообщение с доской на партию, я правлю его каждый ход (Telegram), /settings доски новые — новое сообщение каждый ход (для администраторов чата).
    /help <тема> — игра, ходы, скрытые, вчетвером, ещё.

## What the adapters write themselves (notices, fallbacks, button labels).
adapter-dm-refused = { $mention }, не получается написать вам в личные сообщения (они закрыты или бот заблокирован). Нажмите кнопку, чтобы увидеть свою доску здесь; её увидите только вы.
adapter-sent-by-dm = Отправлено вам в личные сообщения.
adapter-show-my-board = Показать мою доску
adapter-game-continues = Партия { $game } продолжается в { $thread }.
adapter-send-failed = Discord не дал отправить ответ. Проверьте, что боту можно писать сообщения и прикреплять файлы в этом канале, и попробуйте ещё раз.
adapter-file-too-large = (Картинка оказалась слишком большой для { $platform }.)
adapter-bad-options = Не удалось прочитать параметры команды. Попробуйте ещё раз.
adapter-internal-error = Что-то пошло не так на стороне бота. Попробуйте ещё раз.
adapter-unknown-command = Этой команды больше нет. /help — список команд.
adapter-deep-link-prompt = { $player }, ваша доска видна только вам. Нажмите кнопку и «Запустить» — доска придёт в личный чат.
adapter-note-link-prompt = { $player }, для вас есть личный ответ. Нажмите кнопку и «Запустить» — тогда бот сможет писать вам.
adapter-note-link-button = Открыть личный чат
adapter-deep-link-button = Открыть мою доску
adapter-picker-prompt = Выберите вариант:
adapter-picker-computer-prompt = Игра с компьютером. Выберите вариант:
adapter-picker-not-yours = Это меню для того, кто набрал /play.
adapter-picker-expired = Это меню устарело — наберите /play ещё раз.

## The commands' descriptions (bot/src/command.rs): Telegram's menu (1–256
## characters) and Discord's slash commands (1–100).
command-play = Вызвать соперника или любого здесь: вариант, соперник, часы, цвет
command-accept = Принять вызов (здесь или по номеру партии)
command-decline = Отклонить вызов или отозвать свой
command-move = Сделать ход: e4, Кf3, e7e8q …
command-m = Коротко для /move
command-resign = Сдаться (с подтверждением)
command-draw = Предложить ничью или принять предложение соперника
command-nodraw = Отклонить предложение ничьей
command-takeback = Попросить вернуть ход или разрешить сопернику
command-notakeback = Не разрешить сопернику вернуть ход
command-abort = Прервать партию, пока оба не сделали ход
command-board = Показать доску (в скрытых играх — лично)
command-games = Ваши партии
command-pgn = Запись партии в PGN
command-timeline = Путешествие во времени: доска сейчас и все оставленные линии
command-rules = Правила варианта
command-variants = Варианты, в которые можно играть
command-learn = Уроки от пешек до мата: список или начать урок
command-rematch = Реванш: та же партия, цвета наоборот
command-watch = Следить здесь за партией из другого чата (общие сообщения)
command-unwatch = Перестать следить здесь за партией
command-notation = Буквы фигур в ходах, которые показываются лично вам: ru, en или auto
command-partner = Шведские шахматы: личное сообщение партнёру
command-exchange = Енохианские шахматы: предложить или принять обмен пленными
command-noexchange = Енохианские шахматы: отклонить обмен пленными
command-retire = Енохианские шахматы: выйти из игры, передав армию партнёру
command-help = Как играть с Kodex
command-lang = Язык, на котором я говорю с вами (или с этим чатом): en или ru

## Начать с позиции (/play <вариант> fen:<FEN>)
challenge-position = Партия начнётся с позиции { $fen }
error-fen-setup = В варианте { $variant } стороны сначала расставляют фигуры: начать с позиции нельзя.
error-fen-teams = { $variant } — игра вчетвером: начать с позиции нельзя.
error-fen-over = В этой позиции партия уже окончена (мат или нет ходов): играть нечего.
error-fen-too-long = Позицию не прочитать: она слишком длинная.
error-fen-empty = Позицию не прочитать: она пуста. Напишите её после fen:, в конце, например: /play chess fen:4k3/8/8/8/8/8/4P3/4K3 w - - 0 1
error-fen-board-too-large = Позицию не прочитать: доска не помещается.
error-fen-rank-count = Позицию не прочитать: на доске горизонталей { $expected }, в позиции { $found }.
error-fen-rank-too-long = Позицию не прочитать: в горизонтали { $rank } слишком много полей.
error-fen-rank-too-short = Позицию не прочитать: в горизонтали { $rank } полей { $found }, а на доске { $expected }.
error-fen-zero-run = Позицию не прочитать: 0 — не число пустых полей.
error-fen-unknown-piece = Позицию не прочитать: «{ $piece }» — не фигура этого варианта.
error-fen-piece-on-hole = Позицию не прочитать: фигура («{ $piece }») стоит там, где у доски нет поля.
error-fen-stray-promoted = Позицию не прочитать: ~ должна стоять после фигуры.
error-fen-unclosed-pocket = Позицию не прочитать: запас [ должен закрываться ] в конце доски.
error-fen-no-pockets = Позицию не прочитать: в этом варианте нет фигур в запасе.
error-fen-unknown-pocket-piece = Позицию не прочитать: «{ $piece }» в запасе — не фигура этого варианта.
error-fen-pocket-full = Позицию не прочитать: слишком много фигур в запасе.
error-fen-bad-side = Позицию не прочитать: очередь хода — w или b, а не «{ $text }».
error-fen-too-many-kings = Позицию не прочитать: у { $side ->
        [white] белых
       *[black] чёрных
    } больше одного короля.
error-fen-royal-in-pocket = Позицию не прочитать: «{ $piece }» — король, а король в запасе не бывает.
error-fen-missing-royal = Позицию не прочитать: у { $side ->
        [white] белых
       *[black] чёрных
    } нет короля.
error-fen-pawn-on-promotion-rank = Позицию не прочитать: пешка стоит на поле превращения.
error-fen-royal-only = Позицию не прочитать: на { $square } (цитадель) может стоять только король.
error-fen-bad-castling = Позицию не прочитать: «{ $piece }» — не право рокировки.
error-fen-bad-en-passant = Позицию не прочитать: «{ $text }» — не поле взятия на проходе.
error-fen-bad-check-counter = Позицию не прочитать: «{ $text }» — не счётчик шахов.
error-fen-bad-counter = Позицию не прочитать: «{ $text }» — не число.
error-fen-too-many-fields = Позицию не прочитать: в ней слишком много полей записи.
error-fen-opponent-in-check = Позицию не прочитать: стороне, которая не ходит, объявлен шах.
error-fen-other = Позицию не прочитать в этом варианте.

## Реванш
button-rematch = Реванш
rematch-offered = { $challenger } предлагает { $opponent } реванш после партии { $after }: { $variant } ({ $clock }, { $colors }). Партия { $id }: { $opponent }, /accept или /decline.
error-rematch-none = В этом чате у вас нет оконченной партии: /rematch <партия>.
error-rematch-not-over = Партия { $id } ещё не окончена.
error-rematch-not-player = Вы не играли в партии { $id }.
error-rematch-teams = Реванш — для партий двух игроков; вчетвером начните новый вызов: /play.
error-rematch-pending = Ваше предложение реванша ждёт ответа: партия { $id }.

## Зрители
button-watch = Смотреть
watch-started = Партия { $id } теперь видна здесь: { $game }. Все общие сообщения партии приходят и сюда; /unwatch { $id } — перестать.
watch-stopped = Партия { $id } здесь больше не показывается.
error-watch-usage = Какую партию? /watch <партия> (номер есть в каждом сообщении партии).
error-watch-over = Партия { $id } не идёт: её запись — /pgn { $id }.
error-watch-here = Партия { $id } и так идёт в этом чате.
pgn-as-file = Запись партии { $id } не помещается в одно сообщение: вот она файлом PGN.
error-watch-limit = Один чат (или человек) смотрит самое большее { $max ->
    [one] { $max } партию
    [few] { $max } партии
   *[many] { $max } партий
} сразу; сначала /unwatch одну из них.
error-watch-already = Партия { $id } уже показывается здесь.
error-not-watching = Партия { $id } здесь не показывается.

## Напоминания
reminder = ⏰ Партия { $id } против { $opponent }: ваш ход, на часах осталось { $left }.

## Нотация (/notation)
notation-current = Ваши ходы показываются { $notation ->
        [ru] русскими буквами фигур (Кр Ф Л С К)
        [en] английскими буквами фигур (K Q R B N)
       *[auto] буквами фигур вашего языка
    }. Изменить: /notation ru, /notation en или /notation auto.
notation-set = Теперь ваши ходы показываются { $notation ->
        [ru] русскими буквами фигур (Кр Ф Л С К)
        [en] английскими буквами фигур (K Q R B N)
       *[auto] буквами фигур вашего языка
    }.
error-bad-notation = Нотация: /notation ru (Кр Ф Л С К), /notation en (K Q R B N) или /notation auto (по вашему языку).

## Bughouse (two linked boards)
bughouse-started = Партия { $id } в шведские шахматы начинается ({ $variant }, { $clock }): доска A { $a }, доска B { $b }. Партнёры: { $first } против { $second }. Ходы пишите как обычно; взятые фигуры уходят в запас партнёра; /partner <текст> — сообщение только партнёру.
bughouse-board = Доска { $board }:
bughouse-gift = { $player } получает { $piece ->
        [P] пешку
        [N] коня
        [B] слона
        [R] ладью
        [Q] ферзя
       *[other] фигуру
    } на доске { $board }.
bughouse-result = { $id }: { $result } — побеждают { $winners }: { $reason } на доске { $board }.
bughouse-draw-offered = { $player } предлагает ничью в партии { $id } (шведские шахматы). Ничья, если согласны оба: { $opponents }. /draw — согласиться, /nodraw — отказаться.
error-takeback-bughouse = В шведских шахматах ходы не возвращают: ход на одной доске уже повлиял на другую.
error-partner-usage = Сообщение партнёру: /partner <текст>.
error-partner-no-game = У вас нет идущей партии в шведские шахматы, писать некому.
partner-message = 💬 { $player } (ваш партнёр, партия { $id }): { $text }
partner-sent = Отправлено только игроку { $player }.

## Шахматы вчетвером (issue 13): ходы, которые вынуждают правила мест.
fourplayer-mated = Королю игрока { $player } мат: отправьте «пас», а следующий игрок должен побить короля.
fourplayer-no-move = У игрока { $player } нет ходов: отправьте «пас».
fourplayer-take-king = { $player } должен побить заматованного короля.

## Енохианские шахматы (issue 13): короля берут, а не матуют
reason-kings-taken = оба короля команды взяты
color-red = красные
color-yellow = жёлтые
color-blue = синие

## Компьютер в играх вчетвером (issues 13, 15).
error-team-computer-twice = Компьютер назван дважды: дайте каждому его месту свой уровень (`computer level 2`).

## Ничья в партиях на четверых на одной доске: соглашаются все игроки другой команды
draw-agreed-waiting = { $player }: согласие на ничью в партии { $id }. Ещё не согласились: { $waiting } (/draw — согласиться, /nodraw — отклонить).
draw-offered-team = { $player } предлагает ничью в партии { $id }. Ничья, если согласятся все: { $opponents } (/draw — согласиться, /nodraw — отказаться).

## Автоматический пропуск хода в играх вчетвером (issue 13): у места остался только пас.
auto-pass-mated = { $player } ({ $color }): мат, ход пропущен.
auto-pass-no-move = { $player } ({ $color }): ходов нет, ход пропущен.

## Enochian chess (issue 13): thrones and prisoners
throne-moves-for = Армией ({ $color }) игрока { $owner } ходит { $player }: престол захвачен.
throne-taken = 👑 Король игрока { $player } захватывает престол ({ $color }): теперь { $player } ходит и армией игрока { $owner }, в её очередь.
exchange-king = король ({ $color })
exchange-offered = { $player } предлагает обмен пленными в партии { $id }: { $theirs } за { $ours }. { $opponent }: /exchange — согласиться, /noexchange — отказаться.
exchange-done = { $id }: обмен пленными. { $first } и { $second } возвращаются на свои престолы, их армии снова играют.
exchange-declined = { $player } отказывается от обмена пленными.
exchange-no-offer = Обмен пленными никто не предлагал.
exchange-already-offered = Ваша команда уже предложила обмен пленными; ответ за другой командой.
exchange-not-here = В партии { $id } нет пленных: обмен бывает только в енохианских шахматах.
exchange-nothing = Ваша армия не взяла ни одного короля — менять нечего.
exchange-own-king-taken = Ваш собственный король взят: меняться пленными может только игрок, у которого король на доске.
exchange-their-king-taken = У { $player } взят свой король: обмен пленными невозможен.
exchange-they-hold-none = У { $player } нет взятого короля вашей команды — менять нечего.
reason-team-stalemated = игрок в пате, и его партнёр тоже вне игры
reason-bare-kings = у обоих игроков команды остались голые короли

## Enochian chess: retiring from the game
retire-done = { $player } выходит из партии { $id }: армией ({ $color }) теперь ходит { $partner }.
retire-bare-king = У армии ({ $color }) остался голый король: в обе очереди { $partner } ходит либо этим королём, либо своей армией.
retired-moves-for = Армией ({ $color }) игрока { $owner }, вышедшего из игры, ходит { $player }.
retired-shares-turns = В этот ход { $player } может пойти голым королём ({ $color }) или своей армией: { $owner } — вне игры.
retire-you-left = Вы вышли из партии { $id }: вашей армией теперь ходит { $partner }.
retire-not-here = Из партии { $id } выйти нельзя: это можно только в енохианских шахматах, игре вчетвером в двух командах.
retire-partner-retired = { $partner } уже вне игры: последний игрок команды остаётся (сдаться за команду — /resign).
retire-own-king-taken = Ваш король взят: замороженную армию передать нельзя.
retire-partner-king-taken = Король игрока { $partner } взят: армию некому передать.
retire-controls-partner = Вы ходите обеими армиями (ваш король захватил престол игрока { $partner }): игрок с двумя армиями выйти из игры не может.

## Ratings (bot/src/rating.rs, service/commands/ratings.rs).
game-rated = Рейтинговая партия: результат меняет рейтинг обоих игроков.
game-casual = Товарищеская партия: рейтинг не меняется.
rating-changes = Рейтинг: { $changes }
error-rated-computer = Партии с компьютером не бывают рейтинговыми; уберите «рейтинговая».
error-rated-position = Партии с заданной позиции не бывают рейтинговыми; уберите «рейтинговая».
error-rated-no-clock = Рейтинговыми бывают только партии с часами: добавьте контроль (/play chess @bob 5+3 рейтинговая) или уберите «рейтинговая».
error-rated-team = Партии больше чем двух игроков не бывают рейтинговыми; уберите «рейтинговая».
rating-none = У игрока { $player } ещё нет рейтинговых партий.
rating-header = Рейтинг игрока { $player }:
rating-line = { $variant }: { $rating } (RD { $rd }) · { $games } { $games ->
        [one] партия
        [few] партии
       *[many] партий
    }: побед { $wins }, ничьих { $draws }, поражений { $losses } · лучший { $best }
leaderboard-header = { $variant }: лучшие игроки этого чата по рейтингу (страница { $page } из { $pages })
leaderboard-header-global = { $variant }: лучшие игроки всей платформы по рейтингу (страница { $page } из { $pages })
leaderboard-line = { $place }. { $player } { $rating } ({ $games } { $games ->
        [one] партия
        [few] партии
       *[many] партий
    })
leaderboard-next = Следующая страница: /leaderboard { $next }
leaderboard-empty = Здесь пока ни у кого нет устоявшегося рейтинга в варианте { $variant }: он появляется в списке после первых рейтинговых партий. /leaderboard { $variant } global — вся платформа.
leaderboard-empty-global = Пока ни у кого нет устоявшегося рейтинга в варианте { $variant }: он появляется в списке после первых рейтинговых партий.
error-leaderboard-page = Страницы { $page } нет: в списке { $pages ->
        [one] { $pages } страница
        [few] { $pages } страницы
       *[many] { $pages } страниц
    }.
stats-none = { $player }: законченных партий пока нет.
stats-header = { $player }: { $games } { $games ->
        [one] партия
        [few] партии
       *[many] партий
    } — побед { $wins }, ничьих { $draws }, поражений { $losses }.
stats-variant = { $variant }: { $games } — побед { $wins }, ничьих { $draws }, поражений { $losses }
stats-streak = Серия побед: сейчас { $current }, лучшая { $best }.
command-rating = Рейтинг по вариантам: ваш или другого игрока (@игрок)
command-leaderboard = Лучшие игроки этого чата (или всей платформы) по рейтингу
command-stats = Партии, результаты по вариантам и серии побед: ваши или другого игрока

# tournaments
command-tournament = Турниры в этом чате: новый, войти, выйти, пауза, таблица, начать, добавить, отменить, trf
tournament-usage = Турниры: /tournament new <swiss|roundrobin|double|knockout|arena> <вариант> <часы> [туры] [через <минуты> | в <ЧЧ:ММ> по UTC] [рейтинговый] — например, /tournament new swiss chess 3+2 5 через 10 или /tournament new arena chess 3+0 30 в 20:00 (для турнира на выбывание число — партии матча, armageddon — армагеддон при равенстве; для арены — её длительность в минутах). Дальше /tournament join (или кнопка «Участвовать»; в идущую швейцарку и арену тоже можно вступить), /tournament leave, /tournament pause (пропустить следующие туры; вернуться — снова join), /tournament standings, /tournament start (начать сейчас), /tournament add computer level 3 (объявивший, до начала), /tournament cancel, /tournament trf (отчёт в формате FIDE); в партии арены /berserk до первого хода — вдвое меньше времени и без добавления за очко сверху при победе. Кто дважды не начал партию, выбывает. Турнир принадлежит своему чату.
tournament-in-private = Турниры играют в групповом чате: объявляйте их и участвуйте там.
tournament-unknown-format = «{ $format }» — не формат турнира: swiss (швейцарка), roundrobin (круговой), double (двухкруговой), knockout (на выбывание) или arena (арена).
tournament-two-players-only = Турниры — для партий двух игроков на одной доске.
tournament-needs-clock = Турниру нужны часы: добавьте, например, 3+2, 10+5 или 1d.
tournament-bad-rounds = Число туров в швейцарке — от 1 до { $max }.
tournament-bad-start = Слишком поздно: начало — не позже чем через неделю (минут: { $max }).
tournament-too-many = В этом чате уже столько турниров, сколько можно (открытых или идущих сразу — не больше { $max }).
tournament-format-swiss = Швейцарская система
tournament-format-round-robin = Круговой турнир
tournament-format-double-round-robin = Двухкруговой турнир
tournament-rounds = { $count ->
        [one] { $count } тур
        [few] { $count } тура
       *[other] { $count } туров
    }
tournament-rounds-robin = каждый играет с каждым
tournament-announced = 🏆 { $creator } объявляет турнир { $id }: { $format }, { $variant }, { $clock }, { $rounds }, { $rated ->
        [yes] рейтинговый
       *[no] товарищеский
    }. Минут до начала: { $minutes }. Чтобы играть, нажмите «Участвовать» или напишите /tournament join.
button-tournament-join = Участвовать
tournament-unknown = В этом чате нет турнира { $id }.
tournament-none = В этом чате сейчас нет турнира: /tournament new объявляет новый.
tournament-which = В этом чате несколько турниров: добавьте номер ({ $ids }).
tournament-not-open = Турнир { $id } не принимает участников.
tournament-already-in = Вы уже участвуете в турнире { $id }.
tournament-full = В турнире нет мест (участников не больше { $max }).
tournament-joined = { $player } — участник турнира { $id } (участников: { $count }).
tournament-not-in = Вы не участвуете в турнире { $id }.
tournament-left = { $player } выходит из турнира { $id }.
tournament-not-yours = Это может только объявивший турнир ({ $creator }) или администратор чата.
tournament-over = Турнир { $id } окончен.
tournament-cancelled = Турнир { $id } отменён ({ $player }). Начатые партии доигрываются как обычные.
tournament-trf = Турнир { $id } в формате отчёта FIDE (TRF): его может проверить любая программа жеребьёвки.
tournament-standings = Турнир { $id }: таблица после тура { $round }
tournament-final-standings = Турнир { $id }: итоговая таблица
tournament-no-players = Участников пока нет.
tournament-tb-buchholz = Бх
tournament-tb-buchholz-cut1 = Бх-1
tournament-tb-sonneborn-berger = Б-З
tournament-tb-direct = ЛВ
tournament-tb-wins = Поб
tournament-standing = { $place }. { $player } — { $points } ({ $tiebreaks })
tournament-standing-withdrawn = { $place }. { $player } (вне турнира) — { $points } ({ $tiebreaks })
tournament-too-few = Турнир { $id } отменён: мало участников (нужно { $min }).
tournament-started = 🏆 Турнир { $id } начинается: { $format }, { $variant }, { $clock }, { $rounds }, { $rated ->
        [yes] рейтинговый
       *[no] товарищеский
    }; участников: { $count }.
tournament-round = Тур { $round } из { $rounds } (турнир { $id }):
tournament-board = Доска { $board }: { $white } (белые) – { $black } (чёрные), партия { $game }
tournament-board-result = Доска { $board }: { $white } – { $black } { $score }
tournament-bye = { $player }: в этом туре без соперника (очко без партии).
tournament-sits-out = { $player } пропускает этот тур.
tournament-round-how = Каждая партия играется здесь, как любая: первыми ходят белые. Кто не сделает первый ход вовремя, проигрывает партию.
tournament-round-over = Тур { $round } турнира { $id } окончен:
tournament-winner = 🏆 Турнир { $id } окончен. Победитель: { $player }!
tournament-format-knockout = На выбывание
tournament-knockout-terms = матч — { $count ->
        [one] { $count } партия
        [few] { $count } партии
       *[other] { $count } партий
    }, { $armageddon ->
        [yes] при равенстве — армагеддон
       *[no] при равенстве — партии до победы
    }
tournament-bad-match = В матче на выбывание от 1 до { $max } (партий).
tournament-knockout-round = Круг { $round } из { $rounds } на выбывание, партия { $game } матчей (турнир { $id }):
tournament-knockout-byes = Проходят в следующий круг без игры: { $players }.
tournament-knockout-place = { $place }. { $players }
tournament-knockout-still-in = Ещё в борьбе: { $players }
tournament-format-arena = Арена
tournament-arena-terms = минут: { $minutes }; свободные игроки сразу получают пару; победа — 2, ничья — 1, после двух побед подряд — вдвойне
tournament-bad-arena = Арена длится от 1 до { $max } (минут).
tournament-arena-pairings = Арена { $id }, новые пары (до конца минут: { $minutes }):
tournament-arena-standing = { $place }. { $player } — { $points }{ $fire ->
        [yes] { " " }🔥
       *[no] {""}
    }

# Enochian doubled thrones (issue 31)
error-fen-bad-pair = Позицию не прочитать: на { $square } стоят две фигуры, а две фигуры может занимать только престол в начале енохианских шахмат (его король и ещё одна фигура той же армии, записываются так: (KB)).

# Настройки чата: /settings доска белые|ходящий (issue 32, item 3)
command-settings = Настройки этого чата: как повёрнута доска, новые или исправляемые доски
settings-board-white = белые всегда внизу
settings-board-side-to-move = внизу тот, чей ход
settings-current = Настройки этого чата:
    доска: { $board } (/settings доска белые или /settings доска ходящий);
    доски: { $boards } (/settings доски новые или /settings доски править).
    Меняют их администраторы чата.
settings-boards-new = новое сообщение каждый ход
settings-boards-edit = одно сообщение на партию, я правлю его каждый ход (в Telegram; о правке никто не получает уведомления)
settings-boards-set = Доски партий в этом чате: теперь { $boards }.
settings-board-set = На досках, которые я показываю в этом чате после каждого хода, теперь { $board }.
error-settings-usage = Настройки: /settings доска белые (белые всегда внизу) или /settings доска ходящий (внизу тот, чей ход); /settings доски новые (новая доска каждый ход) или /settings доски править (одно сообщение с доской на партию); /settings показывает их.
error-settings-admin = Настройки чата меняют только его администраторы (в Discord — право «Управлять сервером», в Telegram — администраторы группы).

# tournaments: withdrawal, pause, the computer, late entries, berserk, a start at a time (issue 29, stop 41)
command-berserk = Арена: вдвое меньше времени на своих часах до первого хода — очко сверху за победу
tournament-starts-at = Начало в { $time } по UTC (минут до начала: { $minutes }).
tournament-bad-time = После «в» (at) нужно время суток по UTC, например: в 20:00.
tournament-joined-late = { $player } вступает в идущий турнир { $id }: { $arena ->
        [yes] пара — как только кто-то освободится.
       *[no] пары — с тура { $round }, за прошедшие туры очков нет.
    }
tournament-back = { $player } снова в турнире { $id }: { $arena ->
        [yes] пара — как только кто-то освободится.
       *[no] пары — снова с тура { $round }.
    }
tournament-too-late = В турнире { $id } больше не будет туров: вступать поздно.
tournament-no-pause = Пропускать туры можно только в швейцарке и на арене; в круговом турнире и на выбывание /tournament leave выводит вас из турнира.
tournament-pause-not-running = Турнир { $id } ещё не идёт: до начала /tournament leave отменяет участие.
tournament-paused = { $player } пропускает турнир { $id } со следующей жеребьёвки (без очков и без поражения). Вернуться — /tournament join.
tournament-bad-level = Уровни компьютера — от 1 до 8: /tournament add computer level 3.
tournament-computer-in = { $player } уже участвует в турнире { $id }.
tournament-computer-added = { $player } (компьютер, уровень { $level }) — участник турнира { $id } (участников: { $count }); свои партии он играет, как любую партию с компьютером.
tournament-withdrawn-absent = Турнир { $id }: { $players } { $count ->
        [one] дважды не начал партию и выбывает из турнира
        [few] дважды не начали партию и выбывают из турнира
        [many] дважды не начали партию и выбывают из турнира
       *[other] дважды не начали партию и выбывают из турнира
    }.{ $back ->
        [yes] { " " }Вернуться — /tournament join.
       *[no] {""}
    }
tournament-berserk-no-game = Берсерк — для идущей партии турнира-арены, до вашего первого хода в ней.
tournament-berserk-already = Вы уже объявили берсерк в этой партии.
tournament-berserk-too-late = Берсерк — только до вашего первого хода в партии.
tournament-berserked = ⚔ { $player } — берсерк в партии { $game }: на часах вдвое меньше, { $clock }, и без добавления. Победа принесёт очко сверху.
tournament-round-resumed = Тур { $round } турнира { $id }: партии начаты (жеребьёвка сохранена до перерыва в работе).

# Вызовы: поздний ответ и чужой отказ (issue 32, item 8)
error-challenge-taken = Вызов { $id } уже принят ({ $players }), партия идёт.
error-decline-open = Вызов { $id } открыт для всех: отклонять его вам не нужно, а отозвать его может только { $challenger }.
draw-offered-computer = { $player } предлагает ничью в партии { $id } компьютеру ({ $opponent }); он ответит сам.

# В списке расстановки пешки считаются (issue 32, item 8)
setup-pawns = { $count ->
        [one] { $count } пешку
        [few] { $count } пешки
       *[many] { $count } пешек
    }
setup-pieces-and-pawns = { $pieces } и { $pawns }
