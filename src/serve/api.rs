//! The HTTP routes (`docs/serve.md`): the page (also at a game's own
//! address) and its script and style, the catalog, new games, a game's
//! state (whole, or polled), answers, bots' turns, hints and the log.
//! Requests are read by two extractors whose rejection is the server's
//! JSON error, [`JsonBody`] (a body within the time and size limits, parsed
//! into one of the [`super::wire`] types) and [`GameId`], so that a body
//! too large or too slow, malformed JSON, a target too long and a wrong
//! method get the same kind of message as every other refusal:
//! `{"error": "…"}`.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Path, Request as HttpRequest, State};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;

use super::catalog::Catalog;
use super::host::{Answer, Games, Request};
use super::listen::Client;
use super::seats::{Seating, random_hex, random_seed, seat_names};
use super::studio;
use super::wire::{
    Advance, Answers, AskHint, Choose, CompareJob, ErrorBody, GameState, NewGame, PackFiles,
    Reference, Reissue, StudioAsk, StudioCheck, StudioCompare, StudioReport, StudioStarts,
    StudioTest, StudioTests, View,
};
use super::{ApiError, Limits};
use crate::kernel::diag::is_bad_input;
use crate::play::sim::on_hook_stack;
use crate::rules::script::Allowance;
use crate::rules::{Home, LoadOptions};

const PAGE: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const SHARED_SCRIPT: &str = include_str!("assets/shared.js");
const STYLE: &str = include_str!("assets/style.css");
const STUDIO_PAGE: &str = include_str!("assets/studio.html");
const STUDIO_SCRIPT: &str = include_str!("assets/studio.js");
const STUDIO_STYLE: &str = include_str!("assets/studio.css");

/// What every route shares.
pub struct AppState {
    catalog: Catalog,
    games: Arc<Games>,
    limits: Limits,
    /// The studio's workers, shared between addresses.
    studio_work: Arc<studio::workers::Workers>,
    /// The studio's comparisons.
    comparisons: Arc<studio::compare::Comparisons>,
}

impl AppState {
    /// `network`: the page's address as other devices reach it.
    pub fn new(
        home: &Home,
        load: &LoadOptions,
        limits: Limits,
        network: Option<String>,
    ) -> AppState {
        AppState {
            catalog: Catalog::new(home, load, &limits, network),
            games: Arc::new(Games::new(limits.clone())),
            studio_work: Arc::new(studio::workers::Workers::new(limits.studio_work)),
            comparisons: Arc::new(studio::compare::Comparisons::new(&limits)),
            limits,
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }
}

type Shared = State<Arc<AppState>>;

pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/game/{id}", get(|| async { Html(PAGE) }))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript", SCRIPT) }),
        )
        .route("/style.css", get(|| async { asset("text/css", STYLE) }))
        .route(
            "/shared.js",
            get(|| async { asset("text/javascript", SHARED_SCRIPT) }),
        )
        .route("/studio", get(|| async { Html(STUDIO_PAGE) }))
        .route(
            "/studio.js",
            get(|| async { asset("text/javascript", STUDIO_SCRIPT) }),
        )
        .route(
            "/studio.css",
            get(|| async { asset("text/css", STUDIO_STYLE) }),
        )
        .route("/api/studio/starts", get(studio_starts))
        .route("/api/studio/reference", get(studio_reference))
        .route("/api/studio/check", post(studio_check))
        .route("/api/studio/ask", post(studio_ask))
        .route("/api/studio/test", post(studio_test))
        .route("/api/studio/compare", post(studio_compare))
        .route("/api/studio/compare/{id}", get(compare_state))
        .route("/api/studio/compare/{id}/cancel", post(compare_cancel))
        .route("/api/catalog", get(catalog))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/view", post(view))
        .route("/api/games/{id}/choose", post(choose))
        .route("/api/games/{id}/advance", post(advance))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/poll", get(poll))
        .route("/api/games/{id}/log", get(log))
        .route("/api/games/{id}/reissue", post(reissue))
        .fallback(|| async { ApiError::new(404, "no such page") })
        .method_not_allowed_fallback(|method: Method| async move {
            ApiError::new(405, format!("this route does not take {method}"))
        })
        .layer(middleware::from_fn_with_state(
            state.clone(),
            bounded_target,
        ))
        .with_state(state)
}

/// A request whose target (path and query) is longer than the limit is
/// refused before it is routed.
async fn bounded_target(State(app): Shared, request: HttpRequest, next: Next) -> Response {
    let limit = app.limits.target;
    let length = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if length > limit {
        return ApiError::new(
            414,
            format!("the request's target is {length} bytes long; the limit is {limit}"),
        )
        .into_response();
    }
    next.run(request).await
}

fn asset(kind: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], text).into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = ErrorBody {
            error: self.message,
        };
        (status, Json(body)).into_response()
    }
}

/// A request body as `T`: read within the time and size limits (408, 413)
/// and parsed as JSON into `T`, or a 400 saying what is wrong with it. Any
/// content type is read as JSON.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Arc<AppState>> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: HttpRequest, app: &Arc<AppState>) -> Result<Self, ApiError> {
        let bytes = read_body(app, request.into_body(), app.limits.body).await?;
        parsed(&bytes).map(JsonBody)
    }
}

/// A studio request's body as `T`: as [`JsonBody`], within the studio's
/// size limit (it carries its packs' files).
pub struct StudioBody<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Arc<AppState>> for StudioBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: HttpRequest, app: &Arc<AppState>) -> Result<Self, ApiError> {
        let bytes = read_body(app, request.into_body(), app.limits.studio_body).await?;
        parsed(&bytes).map(StudioBody)
    }
}

/// A body parsed as JSON into `T`, or a 400 saying what is wrong with it.
fn parsed<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        ApiError::new(
            400,
            format!("the request body is not the JSON expected: {e}"),
        )
    })
}

/// A request's body, read within the time and `limit` bytes. A body past
/// the limit is read on and dropped, up to [`DRAINED`] bytes, before the
/// 413 is answered: a client still sending it then reads the answer rather
/// than a connection reset.
async fn read_body(app: &AppState, body: Body, limit: usize) -> Result<Bytes, ApiError> {
    match tokio::time::timeout(app.limits.read, body_within(body, limit)).await {
        Err(_) => Err(ApiError::new(
            408,
            format!(
                "the request's body did not arrive within {} s",
                app.limits.read.as_secs()
            ),
        )),
        Ok(Err(Some(e))) => Err(ApiError::new(
            400,
            format!("reading the request's body: {e}"),
        )),
        Ok(Err(None)) => Err(ApiError::new(
            413,
            format!("the request's body is larger than {limit} bytes, the limit"),
        )),
        Ok(Ok(bytes)) => Ok(bytes),
    }
}

/// The most of a body past its limit read (and dropped) before its 413.
const DRAINED: usize = 16 << 20;

/// The body's bytes, or `Err(None)` past `limit` (what follows read and
/// dropped up to [`DRAINED`]), or the reader's error.
async fn body_within(body: Body, limit: usize) -> Result<Bytes, Option<axum::Error>> {
    use http_body_util::BodyExt;
    let mut body = body;
    let mut kept = Vec::new();
    let mut seen = 0usize;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(Some)?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        seen = seen.saturating_add(data.len());
        if seen <= limit {
            kept.extend_from_slice(&data);
        } else if seen > limit.saturating_add(DRAINED) {
            break;
        }
    }
    if seen > limit {
        return Err(None);
    }
    Ok(Bytes::from(kept))
}

/// The id of the game a route names (`/api/games/{id}/…`).
pub struct GameId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(GameId(id)),
            Err(e) => Err(ApiError::new(e.status().as_u16(), e.body_text())),
        }
    }
}

fn state_of(answer: Answer) -> Response {
    match answer {
        Answer::State(state) => Json(state).into_response(),
        Answer::Hint(hint) => Json(hint).into_response(),
        Answer::Poll(poll) => Json(poll).into_response(),
        Answer::Log(text) => text.into_response(),
        Answer::Key(key) => Json(key).into_response(),
    }
}

async fn catalog(State(app): Shared) -> Response {
    Json(app.catalog.lists()).into_response()
}

async fn new_game(
    State(app): Shared,
    JsonBody(req): JsonBody<NewGame>,
) -> Result<(StatusCode, Json<Box<GameState>>), ApiError> {
    // Admitted first: a request the games' limit or its names refuse loads
    // no rules.
    app.games.has_room()?;
    seat_names(req.seats.len(), req.names.as_deref())?;
    // Loading rules compiles scripts: off the threads that serve requests.
    let chooser = app.clone();
    let (choice, req) = tokio::task::spawn_blocking(move || {
        let choice = chooser.catalog.choose(&req);
        (choice, req)
    })
    .await
    .map_err(|e| ApiError::new(500, format!("loading the rules failed: {e}")))?;
    let choice = choice.map_err(|e| ApiError::new(400, format!("{e:#}")))?;
    let seating = Seating::new(
        &choice.seats,
        req.names.as_deref(),
        req.hints.unwrap_or(true),
    )?;
    let seed = match req.seed {
        Some(seed) => seed,
        None => random_seed()?,
    };
    let state = app.games.start(choice, seed, seating).await?;
    Ok((StatusCode::CREATED, Json(state)))
}

async fn game_state(State(app): Shared, GameId(id): GameId) -> Result<Response, ApiError> {
    app.games.ask(&id, Request::State).await.map(state_of)
}

async fn view(
    State(app): Shared,
    GameId(id): GameId,
    JsonBody(view): JsonBody<View>,
) -> Result<Response, ApiError> {
    app.games.ask(&id, Request::View(view)).await.map(state_of)
}

async fn choose(
    State(app): Shared,
    GameId(id): GameId,
    JsonBody(choice): JsonBody<Choose>,
) -> Result<Response, ApiError> {
    app.games
        .ask(&id, Request::Choose(choice))
        .await
        .map(state_of)
}

async fn advance(
    State(app): Shared,
    GameId(id): GameId,
    JsonBody(advance): JsonBody<Advance>,
) -> Result<Response, ApiError> {
    app.games
        .ask(&id, Request::Advance(advance))
        .await
        .map(state_of)
}

async fn hint(
    State(app): Shared,
    GameId(id): GameId,
    JsonBody(ask): JsonBody<AskHint>,
) -> Result<Response, ApiError> {
    app.games.ask(&id, Request::Hint(ask)).await.map(state_of)
}

async fn reissue(
    State(app): Shared,
    GameId(id): GameId,
    JsonBody(reissue): JsonBody<Reissue>,
) -> Result<Response, ApiError> {
    app.games
        .ask(&id, Request::Reissue(reissue))
        .await
        .map(state_of)
}

async fn poll(State(app): Shared, GameId(id): GameId) -> Result<Response, ApiError> {
    app.games.ask(&id, Request::Poll).await.map(state_of)
}

async fn log(State(app): Shared, GameId(id): GameId) -> Result<Response, ApiError> {
    match app.games.ask(&id, Request::Log).await? {
        Answer::Log(text) => Ok((
            [
                (header::CONTENT_TYPE, "application/x-ndjson".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"towerlab-{id}.jsonl\""),
                ),
            ],
            text,
        )
            .into_response()),
        other => Ok(state_of(other)),
    }
}

async fn studio_starts() -> Response {
    static STARTS: std::sync::OnceLock<StudioStarts> = std::sync::OnceLock::new();
    Json(STARTS.get_or_init(studio::starts)).into_response()
}

async fn studio_reference() -> Response {
    static REFERENCE: std::sync::OnceLock<Reference> = std::sync::OnceLock::new();
    Json(REFERENCE.get_or_init(studio::reference)).into_response()
}

/// Run `work` for `client` on the studio's packs (held over the server's
/// home) off the threads that serve requests, on a thread with the hooks'
/// stack, on one of the studio's workers (`studio::workers`: a request
/// that waits longer than the read time for one is refused, 503), its
/// hooks spending from `allowance` (every game and scenario it runs
/// together), which is stopped once the request has worked for
/// `Limits::studio_time`. Bad input (the packs', the board's) is a 400, a
/// rules failure (a hook that fails while the rules answer on a board
/// included, the request's budget or time spent) a 422.
async fn studio_work<T: Send + 'static>(
    app: &AppState,
    client: std::net::IpAddr,
    packs: &[PackFiles],
    allowance: Arc<Allowance>,
    work: impl FnOnce(&Home, &LoadOptions) -> anyhow::Result<T> + Send + 'static,
) -> Result<T, ApiError> {
    let home = studio::holding(app.catalog.home(), packs)
        .map_err(|e| ApiError::new(400, format!("{e:#}")))?;
    let load = app
        .catalog
        .load_options()
        .clone()
        .with_allowance(allowance.clone());
    let worker = app
        .studio_work
        .take(client, app.limits.read)
        .await
        .map_err(|busy| ApiError::new(503, busy.0))?;
    let guard = tokio::spawn({
        let (allowance, time) = (allowance.clone(), app.limits.studio_time);
        async move {
            tokio::time::sleep(time).await;
            allowance.stop();
        }
    });
    let done = tokio::task::spawn_blocking(move || {
        let _worker = worker;
        on_hook_stack(|| work(&home, &load))
    })
    .await;
    guard.abort();
    let done = done.map_err(|e| ApiError::new(500, format!("the studio's work failed: {e}")))?;
    let spent = allowance.stopped() || allowance.spent() >= allowance.budget();
    done.map_err(|e| {
        let answering = e
            .downcast_ref::<crate::play::scenario::Answering>()
            .is_some();
        let status = if is_bad_input(&e) && !answering && !spent {
            400
        } else {
            422
        };
        ApiError::new(status, format!("{e:#}"))
    })
}

/// [`studio_work`] for one request: its hooks spend from an allowance of
/// their own (`Limits::studio_operations`).
async fn studio_request<T: Send + 'static>(
    app: &AppState,
    client: std::net::IpAddr,
    packs: &[PackFiles],
    work: impl FnOnce(&Home, &LoadOptions) -> anyhow::Result<T> + Send + 'static,
) -> Result<T, ApiError> {
    let limits = &app.limits;
    let allowance = Arc::new(Allowance::new(limits.studio_operations, limits.studio_time));
    studio_work(app, client, packs, allowance, work).await
}

async fn studio_check(
    State(app): Shared,
    ClientAddr(client): ClientAddr,
    StudioBody(req): StudioBody<StudioCheck>,
) -> Result<Json<StudioReport>, ApiError> {
    let packs = req.pack_files.clone();
    let games = req.games.unwrap_or(0);
    studio_request(&app, client, &req.pack_files, move |home, load| {
        studio::check(home, load, &packs, &req.pack, games)
    })
    .await
    .map(Json)
}

async fn studio_ask(
    State(app): Shared,
    ClientAddr(client): ClientAddr,
    StudioBody(req): StudioBody<StudioAsk>,
) -> Result<Json<Answers>, ApiError> {
    let packs = req.pack_files.clone();
    studio_request(&app, client, &packs, move |home, load| {
        studio::ask(home, load, &req.pack, &req.scenario)
    })
    .await
    .map(Json)
}

async fn studio_test(
    State(app): Shared,
    ClientAddr(client): ClientAddr,
    StudioBody(req): StudioBody<StudioTest>,
) -> Result<Json<StudioTests>, ApiError> {
    let packs = req.pack_files.clone();
    studio_request(&app, client, &req.pack_files, move |home, load| {
        studio::test(home, load, &packs, &req.pack)
    })
    .await
    .map(Json)
}

/// The address a request came from (see `listen::Client`).
pub struct ClientAddr(pub std::net::IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<Client>()
            .map(|c| ClientAddr(c.0))
            .ok_or_else(|| ApiError::new(400, "the request's address is unknown"))
    }
}

async fn studio_compare(
    State(app): Shared,
    ClientAddr(client): ClientAddr,
    StudioBody(req): StudioBody<StudioCompare>,
) -> Result<(StatusCode, Json<CompareJob>), ApiError> {
    app.comparisons.admit(client)?;
    let loader = app.clone();
    let files = req.pack_files.clone();
    // Its rules are loaded on a worker, and its games played on a thread of
    // its own, all from one allowance: a request's per check's games.
    let total = studio::compare::games_within(req.games)
        .map_err(|e| ApiError::new(400, format!("{e:#}")))?
        .saturating_mul(2);
    let allowance = Arc::new(Allowance::new(
        app.limits
            .studio_operations
            .saturating_mul(total.div_ceil(studio::MAX_CHECK_GAMES)),
        app.limits.studio_time,
    ));
    let asked = studio_work(&app, client, &files, allowance, move |home, load| {
        let list = loader
            .catalog
            .studio_list(home, &req.packs, &req.pack_files)?;
        studio::compare_sets(
            home,
            load,
            &req.against,
            &loader.catalog.lists().variants,
            &list,
            (req.games, req.players),
        )
    })
    .await?;
    let id = random_hex(8)?;
    let job = app.comparisons.start(client, id, asked)?;
    Ok((StatusCode::ACCEPTED, Json(job)))
}

async fn compare_state(
    State(app): Shared,
    GameId(id): GameId,
) -> Result<Json<CompareJob>, ApiError> {
    app.comparisons.state(&id).map(Json)
}

async fn compare_cancel(
    State(app): Shared,
    ClientAddr(client): ClientAddr,
    GameId(id): GameId,
) -> Result<Json<CompareJob>, ApiError> {
    app.comparisons.cancel(&id, client).map(Json)
}
