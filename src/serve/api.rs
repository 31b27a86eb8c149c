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
use super::seats::{Seating, random_seed, seat_names};
use super::wire::{Advance, AskHint, Choose, ErrorBody, GameState, NewGame, Reissue, View};
use super::{ApiError, Limits};
use crate::rules::Home;

const PAGE: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");

/// What every route shares.
pub struct AppState {
    catalog: Catalog,
    games: Arc<Games>,
    limits: Limits,
}

impl AppState {
    /// `network`: the page's address as other devices reach it.
    pub fn new(home: &Home, limits: Limits, network: Option<String>) -> AppState {
        AppState {
            catalog: Catalog::new(home, &limits, network),
            games: Arc::new(Games::new(limits.clone())),
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
        let bytes = read_body(app, request.into_body()).await?;
        serde_json::from_slice(&bytes).map(JsonBody).map_err(|e| {
            ApiError::new(
                400,
                format!("the request body is not the JSON expected: {e}"),
            )
        })
    }
}

/// A request's body, read within the time and size limits.
async fn read_body(app: &AppState, body: Body) -> Result<Bytes, ApiError> {
    let limit = app.limits.body;
    match tokio::time::timeout(app.limits.read, axum::body::to_bytes(body, limit)).await {
        Err(_) => Err(ApiError::new(
            408,
            format!(
                "the request's body did not arrive within {} s",
                app.limits.read.as_secs()
            ),
        )),
        Ok(Err(e)) if is_too_large(&e) => Err(ApiError::new(
            413,
            format!("the request's body is larger than {limit} bytes, the limit"),
        )),
        Ok(Err(e)) => Err(ApiError::new(
            400,
            format!("reading the request's body: {e}"),
        )),
        Ok(Ok(bytes)) => Ok(bytes),
    }
}

/// The body reader stopped at the size limit.
fn is_too_large(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = source {
        if err.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = err.source();
    }
    false
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
