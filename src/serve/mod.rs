//! `sow serve`: the playground's web server, on loopback unless told:
//! the JSON API (`api`, a function a route over the library) behind a
//! router that bounds every request: its body's size, the requests at
//! work at once (each on a blocking thread of its own), and the work each
//! may do (the engine's limits, and the API's caps on games and levels).

pub mod api;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::Semaphore;

/// The most bytes a request's body holds: a variant file's limit, and
/// room for a position and a move list beside it.
pub const MAX_BODY: usize = crate::limits::MAX_FILE_BYTES as usize + 256 * 1024;

/// How long a request's work may take, unless the server is told
/// otherwise (`sow serve --time-limit`).
pub const TIME_LIMIT: Duration = Duration::from_secs(30);

/// What the routes share: the permits for work under way, and how long a
/// request may take.
#[derive(Clone)]
struct Shared {
    work: Arc<Semaphore>,
    time_limit: Duration,
}

/// The playground: its page and assets, built from `web/` by `npm run
/// build` (committed, so that a Rust-only build serves them).
const ASSETS: [(&str, &str, &str); 3] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("assets/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    ),
    (
        "/app.css",
        "text/css; charset=utf-8",
        include_str!("assets/app.css"),
    ),
];

/// The server's routes; a request's work that takes longer than
/// `time_limit` is answered `503`.
pub fn router(time_limit: Duration) -> Router {
    let shared = Shared {
        work: Arc::new(Semaphore::new(crate::runs::all_cores() * 2)),
        time_limit,
    };
    let posts: [(&str, api::Endpoint); 9] = [
        ("/api/check", api::check),
        ("/api/show", api::show),
        ("/api/record", api::record),
        ("/api/record/read", api::record_read),
        ("/api/moves", api::moves),
        ("/api/play", api::play),
        ("/api/ai", api::ai),
        ("/api/analyze", api::analyze),
        ("/api/analyze/merge", api::analyze_merge),
    ];
    let routes = posts
        .into_iter()
        .fold(Router::new(), |r, (path, endpoint)| {
            r.route(
                path,
                post(move |s: State<Shared>, b: Bytes| work(s, b, endpoint)),
            )
        });
    let routes = ASSETS.into_iter().fold(routes, |r, (path, kind, text)| {
        r.route(
            path,
            get(move || async move { ([(header::CONTENT_TYPE, kind)], text) }),
        )
    });
    routes
        .route("/api/variants", get(|| async { reply(api::variants()) }))
        .route("/api/language", get(|| async { reply(api::language()) }))
        .route(
            "/api/variants/{name}",
            get(|Path(name): Path<String>| async move { reply(api::variant_file(&name)) }),
        )
        .fallback(|| async {
            reply((
                404,
                serde_json::json!({ "error": "no such page: the API is under /api/" }),
            ))
        })
        .layer(axum::middleware::map_response(json_errors))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// The answers axum makes itself (a body too large, a method a page does
/// not take), in JSON as every other answer.
async fn json_errors(response: Response) -> Response {
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    let message = match response.status() {
        _ if json => return response,
        StatusCode::PAYLOAD_TOO_LARGE => {
            format!("a request's body is at most {MAX_BODY} bytes (a variant's text, a position and moves)")
        }
        StatusCode::METHOD_NOT_ALLOWED => {
            "this page takes another method: GET for / and /api/variants, /api/language, /api/variants/NAME; POST for the other /api/ pages".to_string()
        }
        _ => return response,
    };
    reply((
        response.status().as_u16(),
        serde_json::json!({ "error": message }),
    ))
}

/// An answer as an HTTP response.
fn reply((status, body): api::Answer) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, axum::Json(body)).into_response()
}

/// Does an endpoint's work on a blocking thread, once a permit is free,
/// within the time limit. (Work past the limit is answered at once; a
/// long run stops handing out work at the limit, and the work under way
/// holds its permit until it ends: the work at once stays bounded.)
async fn work(State(shared): State<Shared>, body: Bytes, endpoint: api::Endpoint) -> Response {
    let Ok(permit) = shared.work.clone().acquire_owned().await else {
        return reply((
            503,
            serde_json::json!({ "error": "the server is stopping" }),
        ));
    };
    let deadline = std::time::Instant::now() + shared.time_limit;
    let task = tokio::task::spawn_blocking(move || {
        let answer = crate::runs::with_deadline(deadline, || endpoint(&body));
        drop(permit);
        answer
    });
    match tokio::time::timeout(shared.time_limit, task).await {
        Ok(Ok(answer)) => reply(answer),
        Ok(Err(_)) => reply((
            500,
            serde_json::json!({ "error": "the request's work failed" }),
        )),
        Err(_) => reply((
            503,
            serde_json::json!({ "error": format!(
                "the request's work took longer than this server allows ({} s): ask for less (fewer games, a lower level)",
                shared.time_limit.as_secs_f64()
            ) }),
        )),
    }
}

/// Serves on `listener` until Ctrl-C, calling `ready` with the address
/// once it listens.
pub fn serve(
    listener: std::net::TcpListener,
    time_limit: Duration,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let address = listener.local_addr()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(crate::runs::all_cores().clamp(1, 8))
        .max_blocking_threads(crate::runs::all_cores() * 2 + 2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        ready(address);
        axum::serve(listener, router(time_limit))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })
}
