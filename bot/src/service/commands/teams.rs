//! Team challenges for games of four seats: `/play <variant> [@partner] vs
//! [@opponent …]`. The challenger sits at once; the people named are invited
//! to their seats and take them with `/accept` (or the *Take seat* button);
//! every other seat is open to anyone in the chat. The game starts when every
//! seat is taken.
//!
//! A challenge row holds its seats as they fill: a seat row with `ready`
//! set is taken, one without is an invitation (a seat kept for the person
//! named), and a seat without a row is open. Seats, sides and teams are
//! decided when the challenge is made, so everyone sees who partners whom
//! and with which colour before the start.

use crate::api::{Button, Delivery, Target, UserRef};
use crate::i18n::Lang;
use crate::service::kernel::players::{is_user, stored_user_id};
use crate::service::kernel::terms::{is_team_variant, ColorChoice, Terms};
use crate::service::kernel::{Ctx, Msg, Outcome, Service};
use crate::store::{Color, GameRow, SeatRow};
use kodex_engine::{Side, Team, Variant};

/// The side and team of every seat of `variant`, in seat order.
fn seat_plan(variant: &Variant) -> Vec<(Side, Team)> {
    variant
        .definition()
        .seating()
        .into_iter()
        .map(|(_, side, team)| (side, team))
        .collect()
}

impl Service {
    /// `/play <variant> [@partner] vs [@opponent …] [clock] [color]`.
    // The typed options of a team `/play`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn play_teams(
        &self,
        ctx: &Ctx,
        variant: &str,
        partners: Vec<UserRef>,
        opponents: Vec<UserRef>,
        clock: Option<String>,
        color: Option<ColorChoice>,
        rated: Option<bool>,
    ) -> Outcome {
        // A game of more than two players is never rated.
        if rated == Some(true) {
            return Err(Msg::new("error-rated-team").into());
        }
        let terms = self.challenge_terms(ctx, variant, clock, color)?;
        self.play_teams_with(ctx, terms, partners, opponents).await
    }

    /// A team challenge on checked terms.
    pub(crate) async fn play_teams_with(
        &self,
        ctx: &Ctx,
        terms: Terms,
        partners: Vec<UserRef>,
        opponents: Vec<UserRef>,
    ) -> Outcome {
        let Terms {
            variant,
            time_control,
            color,
        } = terms;
        let name = variant.name(ctx.lang.code()).to_owned();
        let plan = seat_plan(&variant);
        if plan.len() <= 2 {
            return Err(Msg::new("error-not-a-team-game")
                .arg("variant", name)
                .into());
        }
        if variant.definition().boards > 2 {
            // Two linked boards are bughouse; more are no game here.
            return Err(Msg::new("error-two-boards").arg("variant", name).into());
        }
        // The computer may sit in any seat named for it (one seat per level:
        // a seat is known by its player's id).
        let named: Vec<&UserRef> = partners.iter().chain(&opponents).collect();
        if named.iter().any(|user| is_user(ctx.actor(), &user.id)) {
            return Err(Msg::new("error-self-challenge").into());
        }
        let duplicate = named.iter().enumerate().find(|(i, user)| {
            named[..*i]
                .iter()
                .any(|other| stored_user_id(&other.id) == stored_user_id(&user.id))
        });
        if let Some((_, user)) = duplicate {
            if user.computer_level().is_some() {
                return Err(Msg::new("error-team-computer-twice").into());
            }
            return Err(Msg::new("error-team-twice").into());
        }
        // The challenger's team plays the colour asked for; random is drawn
        // now, so that the seats shown before the start are the seats played.
        let side = match color {
            ColorChoice::White => Side::WHITE,
            ColorChoice::Black => Side::BLACK,
            ColorChoice::Random => Side(u8::from(fastrand::bool())),
        };
        let Some(own_seat) = plan.iter().position(|&(s, _)| s == side) else {
            return Err(Msg::new("error-internal").into());
        };
        let own_team = plan[own_seat].1;
        let partner_seats: Vec<usize> = (0..plan.len())
            .filter(|&seat| seat != own_seat && plan[seat].1 == own_team)
            .collect();
        let opponent_seats: Vec<usize> = (0..plan.len())
            .filter(|&seat| plan[seat].1 != own_team)
            .collect();
        if partners.len() > partner_seats.len() || opponents.len() > opponent_seats.len() {
            return Err(Msg::new("error-team-size")
                .arg("variant", name)
                .arg("partners", partner_seats.len() as i64)
                .arg("opponents", opponent_seats.len() as i64)
                .into());
        }
        self.check_limits(ctx, true).await?;
        let mut row = self.challenge_row(ctx, &variant, &time_control, color);
        let seat_row = |seat: usize, user: &UserRef, taken: bool| SeatRow {
            seat,
            user_id: stored_user_id(&user.id),
            user_name: user.name.clone(),
            side: plan[seat].0,
            team: plan[seat].1,
            remaining_ms: None,
            setup: None,
            // In a challenge: whether the seat is taken (not only kept); the
            // computer sits at once.
            ready: taken || user.computer_level().is_some(),
        };
        row.color = Color::Side(side);
        row.seats.push(seat_row(own_seat, ctx.actor(), true));
        for (seat, user) in partner_seats.iter().zip(&partners) {
            row.seats.push(seat_row(*seat, user, false));
        }
        for (seat, user) in opponent_seats.iter().zip(&opponents) {
            row.seats.push(seat_row(*seat, user, false));
        }
        row.seats.sort_by_key(|seat| seat.seat);
        self.insert_challenge(&mut row).await?;
        tracing::info!(game = %row.id, variant = %row.variant, "team challenge created");
        if row.seats.len() == plan.len() && row.seats.iter().all(|s| s.ready) {
            // Everyone named was the computer: nobody is left to wait for.
            return self.start(row, &variant, ctx.chat_lang).await;
        }
        Ok(vec![self.seats_delivery(
            ctx.chat_lang,
            &row,
            &variant,
            None,
        )])
    }

    /// Takes a seat of the team challenge `row` for the actor: the seat kept
    /// for them, else seat `wanted` (a button), else the first open one.
    /// Starts the game when it was the last.
    pub(crate) async fn take_seat(
        &self,
        ctx: &Ctx,
        mut row: GameRow,
        variant: &Variant,
        wanted: Option<usize>,
    ) -> Outcome {
        let actor = ctx.actor();
        let plan = seat_plan(variant);
        let mine = row
            .seats
            .iter()
            .position(|seat| is_user(actor, &seat.user_id));
        let index = match mine {
            Some(i) if row.seats[i].ready => {
                return Err(Msg::new("error-seat-yours")
                    .arg("id", row.id.clone())
                    .into())
            }
            Some(i) => i,
            None => {
                let open = |seat: &usize| !row.seats.iter().any(|s| s.seat == *seat);
                let seat = match wanted {
                    Some(seat) if seat >= plan.len() => {
                        return Err(Msg::new("error-stale-button").into())
                    }
                    Some(seat) if !open(&seat) => {
                        let holder = row
                            .seat(seat)
                            .map_or_else(String::new, |s| s.user_name.clone());
                        return Err(Msg::new("error-seat-taken")
                            .arg("seat", (seat + 1) as i64)
                            .arg("player", holder)
                            .into());
                    }
                    Some(seat) => seat,
                    None => (0..plan.len())
                        .find(open)
                        .ok_or_else(|| Msg::new("error-no-open-seat").arg("id", row.id.clone()))?,
                };
                row.seats.push(SeatRow {
                    seat,
                    user_id: String::new(),
                    user_name: String::new(),
                    side: plan[seat].0,
                    team: plan[seat].1,
                    remaining_ms: None,
                    setup: None,
                    ready: false,
                });
                row.seats.sort_by_key(|s| s.seat);
                row.seats
                    .iter()
                    .position(|s| s.seat == seat)
                    .unwrap_or_default()
            }
        };
        let seat = &mut row.seats[index];
        seat.user_id = actor.id.clone();
        seat.user_name = actor.name.clone();
        seat.ready = true;
        let taken = seat.seat;
        let full = row.seats.len() == plan.len() && row.seats.iter().all(|s| s.ready);
        let lang = self.game_chat_lang(ctx, &row).await;
        if full {
            tracing::info!(game = %row.id, "every seat taken");
            return self.start(row, variant, lang).await;
        }
        self.save(&mut row).await?;
        Ok(vec![self.seats_delivery(lang, &row, variant, Some(taken))])
    }

    /// The chat's message about the seats of team challenge `row` (after
    /// seat `taken` was taken, if any): who sits where with which colour and
    /// partner, and a *Take seat* button for every seat not yet taken.
    fn seats_delivery(
        &self,
        lang: Lang,
        row: &GameRow,
        variant: &Variant,
        taken: Option<usize>,
    ) -> Delivery {
        let plan = seat_plan(variant);
        let mut teams: Vec<Team> = plan.iter().map(|&(_, team)| team).collect();
        teams.sort_unstable();
        teams.dedup();
        let seat_line = |seat: usize| {
            let color = self.seat_color_name(lang, variant, seat, plan[seat].0);
            let player = match row.seat(seat) {
                Some(s) if s.ready => s.user_name.clone(),
                Some(s) => self.text(
                    lang,
                    &Msg::new("seat-invited").arg("player", s.user_name.clone()),
                ),
                None => self.text(lang, &Msg::new("seat-open")),
            };
            self.text(
                lang,
                &Msg::new("seat-line")
                    .arg("seat", (seat + 1) as i64)
                    .arg("color", color)
                    .arg("player", player),
            )
        };
        let lines: Vec<String> = teams
            .iter()
            .map(|&team| {
                let seats: Vec<String> = (0..plan.len())
                    .filter(|&seat| plan[seat].1 == team)
                    .map(seat_line)
                    .collect();
                self.text(
                    lang,
                    &Msg::new("seat-team")
                        .arg("team", i64::from(team.0) + 1)
                        .arg("seats", seats.join(" · ")),
                )
            })
            .collect();
        let mut text = match taken.and_then(|seat| row.seat(seat)) {
            Some(seat) => self.text(
                lang,
                &Msg::new("seat-taken")
                    .arg("id", row.id.clone())
                    .arg("player", seat.user_name.clone())
                    .arg("seat", (seat.seat + 1) as i64),
            ),
            None => self.text(
                lang,
                &Msg::new("challenge-teams")
                    .arg("id", row.id.clone())
                    .arg("challenger", row.challenger_name.clone())
                    .arg("variant", variant.name(lang.code()).to_owned())
                    .arg("clock", self.clock_name(lang, row.time_control)),
            ),
        };
        text.push('\n');
        text.push_str(&lines.join("\n"));
        text.push('\n');
        text.push_str(&self.text(lang, &Msg::new("seat-how").arg("id", row.id.clone())));
        let mut buttons: Vec<Button> = (0..plan.len())
            .filter(|&seat| row.seat(seat).is_none_or(|s| !s.ready))
            .map(|seat| Button {
                label: self.text(
                    lang,
                    &Msg::new("button-take-seat")
                        .arg("seat", (seat + 1) as i64)
                        .arg(
                            "color",
                            self.seat_color_name(lang, variant, seat, plan[seat].0),
                        ),
                ),
                data: crate::api::ButtonAction::TakeSeat {
                    game: row.id.clone(),
                    seat: seat as u8,
                }
                .encode(),
            })
            .collect();
        buttons.push(Button {
            label: self.text(lang, &Msg::new("button-decline")),
            data: crate::api::ButtonAction::Decline {
                game: row.id.clone(),
            }
            .encode(),
        });
        // Asked to act: the people invited to a seat they have not taken yet.
        let invited: Vec<usize> = row
            .seats
            .iter()
            .filter(|seat| !seat.ready)
            .map(|seat| seat.seat)
            .collect();
        Delivery {
            notify: crate::service::present::to_notify(row, invited),
            target: Target::Chat(crate::service::present::chat_of(row)),
            text,
            image: None,
            buttons,
            game: Some(self.game_ref(lang, row, false)),
        }
    }

    /// The *Take seat* button of seat `seat` of the challenge `game`.
    pub(crate) async fn take_seat_button(&self, ctx: &Ctx, game: String, seat: usize) -> Outcome {
        self.check_limits(ctx, false).await?;
        let found = self.find_challenge(ctx, Some(game), true).await?;
        let (_lock, row) = self
            .lock_fresh(&found, crate::store::Status::Challenge)
            .await?;
        let row =
            row.ok_or_else(|| Msg::new("error-challenge-gone").arg("id", found.id.clone()))?;
        let variant = self.variant(&row)?;
        if !is_team_variant(&variant) {
            return Err(Msg::new("error-stale-button").into());
        }
        self.take_seat(ctx, row, &variant, Some(seat)).await
    }
}
