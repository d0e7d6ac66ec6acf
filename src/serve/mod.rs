//! `sow serve`: the playground's web server, on loopback unless told:
//! the JSON API (`api`, a function a route over the library) behind a
//! router that bounds every request: its body's size, the requests at
//! work at once (each on a blocking thread of its own), and the work each
//! may do (the engine's limits, and the API's caps on games and levels).

pub mod api;

use std::net::SocketAddr;
use std::sync::Arc;

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

/// What the routes share: the permits for work under way.
#[derive(Clone)]
struct Shared {
    work: Arc<Semaphore>,
}

/// The page at `/`: the API's endpoints.
const INDEX: &str = include_str!("index.html");

/// The server's routes.
pub fn router() -> Router {
    let shared = Shared {
        work: Arc::new(Semaphore::new(crate::runs::all_cores() * 2)),
    };
    let posts: [(&str, api::Endpoint); 5] = [
        ("/api/check", api::check),
        ("/api/moves", api::moves),
        ("/api/play", api::play),
        ("/api/ai", api::ai),
        ("/api/analyze", api::analyze),
    ];
    let routes = posts
        .into_iter()
        .fold(Router::new(), |r, (path, endpoint)| {
            r.route(
                path,
                post(move |s: State<Shared>, b: Bytes| work(s, b, endpoint)),
            )
        });
    routes
        .route(
            "/",
            get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX) }),
        )
        .route("/api/variants", get(|| async { reply(api::variants()) }))
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
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// An answer as an HTTP response.
fn reply((status, body): api::Answer) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, axum::Json(body)).into_response()
}

/// Does an endpoint's work on a blocking thread, once a permit is free.
async fn work(State(shared): State<Shared>, body: Bytes, endpoint: api::Endpoint) -> Response {
    let Ok(_permit) = shared.work.acquire().await else {
        return reply((
            503,
            serde_json::json!({ "error": "the server is stopping" }),
        ));
    };
    match tokio::task::spawn_blocking(move || endpoint(&body)).await {
        Ok(answer) => reply(answer),
        Err(_) => reply((
            500,
            serde_json::json!({ "error": "the request's work failed" }),
        )),
    }
}

/// Serves on `listener` until Ctrl-C, calling `ready` with the address
/// once it listens.
pub fn serve(
    listener: std::net::TcpListener,
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
        axum::serve(listener, router())
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })
}
