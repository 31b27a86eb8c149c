//! The HTTP routes (`docs/serve.md`): the page and its script and style,
//! the catalog, new games, a game's state, answers, bots' turns and the log.
//! Bodies are read as bytes and parsed here, so that malformed JSON gets the
//! same kind of message as every other refusal: `{"error": "…"}`.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::ApiError;
use super::catalog::{Catalog, NewGame};
use super::host::{Answer, Games, Request};
use crate::rules::Home;

const PAGE: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");

/// What every route shares.
pub struct AppState {
    catalog: Catalog,
    games: Arc<Games>,
}

impl AppState {
    pub fn new(home: &Home, idle: Duration) -> AppState {
        AppState {
            catalog: Catalog::new(home),
            games: Arc::new(Games::new(idle)),
        }
    }
}

type Shared = State<Arc<AppState>>;

pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript", SCRIPT) }),
        )
        .route("/style.css", get(|| async { asset("text/css", STYLE) }))
        .route("/api/catalog", get(catalog))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/choose", post(choose))
        .route("/api/games/{id}/advance", post(advance))
        .route("/api/games/{id}/log", get(log))
        .fallback(|| async { ApiError::new(404, "no such page") })
        .with_state(state)
}

fn asset(kind: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], text).into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, axum::Json(json!({"error": self.message}))).into_response()
    }
}

/// A request body as `T`, or a 400 saying what is wrong with it.
fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        ApiError::new(
            400,
            format!("the request body is not the JSON expected: {e}"),
        )
    })
}

fn state_of(answer: Answer) -> Response {
    match answer {
        Answer::State(v) => axum::Json(v).into_response(),
        Answer::Log(text) => text.into_response(),
    }
}

async fn catalog(State(app): Shared) -> axum::Json<Value> {
    axum::Json(app.catalog.describe())
}

async fn new_game(State(app): Shared, bytes: Bytes) -> Result<Response, ApiError> {
    let req: NewGame = body(&bytes)?;
    let choice = app
        .catalog
        .choose(&req)
        .map_err(|e| ApiError::new(400, format!("{e:#}")))?;
    let seed = req.seed.unwrap_or_else(|| app.games.random_seed());
    let state = app.games.start(choice, seed).await?;
    Ok((StatusCode::CREATED, axum::Json(state)).into_response())
}

async fn game_state(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    app.games.ask(&id, Request::State).await.map(state_of)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Choose {
    /// The question's kind: placement, ransom, action or capture.
    decision: String,
    token: u64,
    option: usize,
}

async fn choose(
    State(app): Shared,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let c: Choose = body(&bytes)?;
    let request = Request::Choose {
        decision: c.decision,
        token: c.token,
        option: c.option,
    };
    app.games.ask(&id, request).await.map(state_of)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Advance {
    token: u64,
}

async fn advance(
    State(app): Shared,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let a: Advance = body(&bytes)?;
    app.games
        .ask(&id, Request::Advance { token: a.token })
        .await
        .map(state_of)
}

async fn log(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
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
