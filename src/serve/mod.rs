//! `sow serve`: the playground's web server, on loopback unless told:
//! the JSON API (`api`, a function a route over the library) behind a
//! router, and a loop of connections that bounds what any client can
//! hold: each request's body (its size, and the time to send it), its
//! headers (the time to send them, idle connections included), the
//! connections open at once and how long each stays, the requests at
//! work at once (each on a blocking thread of its own) and the time each
//! may take, and the work and answer each may make (the engine's limits,
//! the API's caps). Ctrl-C stops it within a bounded time, whatever the
//! clients do.

pub mod api;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::json;
use tokio::sync::Semaphore;

use crate::runs;

/// The most bytes a request's body holds: a variant file's limit, and
/// room for a position and a move list beside it.
pub const MAX_BODY: usize = crate::limits::MAX_FILE_BYTES as usize + 256 * 1024;

/// How long a request's work may take, unless the server is told
/// otherwise (`sow serve --time-limit`).
pub const TIME_LIMIT: Duration = Duration::from_secs(30);

/// How long a client may take to send a request's headers, and how long
/// a connection may stay open with no request under way (between a
/// keep-alive's requests): past it the connection is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a client may take to send a request's body (`408` past it).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The most connections open at once: past it, new ones wait in the
/// system's queue until one closes (well under the usual limit of 1,024
/// open files).
pub const MAX_CONNECTIONS: usize = 512;

/// How long a connection may stay open beside its requests' time limit:
/// past it, it is closed once its request is answered (a browser opens
/// another), so that a client reading its answer slowly holds it for a
/// bounded time.
pub const CONNECTION_TIME: Duration = Duration::from_secs(60);

/// How long a stop (Ctrl-C) waits for the requests under way to be
/// answered before it closes every connection.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);

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
                post(move |s: State<Shared>, h: HeaderMap, b: Body| work(s, h, b, endpoint)),
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
        StatusCode::PAYLOAD_TOO_LARGE => too_large(),
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

/// What a `413` says.
fn too_large() -> String {
    format!("a request's body is at most {MAX_BODY} bytes (a variant's text, a position and moves)")
}

/// Whether reading a body failed for its length (past [`MAX_BODY`]),
/// not for what came (or did not) on the connection.
fn past_length(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if s.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = s.source();
    }
    false
}

/// An answer as an HTTP response.
fn reply((status, body): api::Answer) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, axum::Json(body)).into_response()
}

/// Does an endpoint's work on a blocking thread, once a work slot is
/// free, all within the time limit from the request's arrival: a request
/// that waits for a slot past it is answered `503` (busy), and work past
/// it is stopped (a [`runs::Cancel`] reaching the engine's turns, the
/// runs, the searches) and answered `503`, its slot freed as it stops. A
/// request whose client goes away is stopped too.
async fn work(
    State(shared): State<Shared>,
    headers: HeaderMap,
    body: Body,
    endpoint: api::Endpoint,
) -> Response {
    let deadline = std::time::Instant::now() + shared.time_limit;
    // (A body said to be too large is refused before it is read.)
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return reply((413, json!({ "error": too_large() })));
    }
    let body = match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, MAX_BODY)).await
    {
        Ok(Ok(body)) => body,
        Ok(Err(e)) if past_length(&e) => return reply((413, json!({ "error": too_large() }))),
        Ok(Err(e)) => {
            return reply((
                400,
                json!({ "error": format!("the request's body could not be read: {e}") }),
            ))
        }
        Err(_) => {
            return reply((
                408,
                json!({ "error": format!(
                    "the request's body did not arrive within {} s",
                    BODY_TIMEOUT.as_secs()
                ) }),
            ))
        }
    };
    let waited = tokio::time::timeout_at(deadline.into(), shared.work.clone().acquire_owned());
    let permit = match waited.await {
        Ok(Ok(permit)) => permit,
        Ok(Err(_)) => return reply((503, json!({ "error": "the server is stopping" }))),
        Err(_) => {
            return reply((
                503,
                json!({ "error": format!(
                    "the server is busy: no work slot came free within its time limit ({} s); try again later",
                    shared.time_limit.as_secs_f64()
                ) }),
            ))
        }
    };
    let cancel = runs::Cancel::until(deadline);
    let _stop_when_dropped = AskOnDrop(cancel.clone());
    let task = tokio::task::spawn_blocking(move || {
        let answer = runs::with_cancel(&cancel, || endpoint(&body));
        drop(permit);
        (answer, cancel.stopped())
    });
    match tokio::time::timeout_at(deadline.into(), task).await {
        Ok(Ok((answer, false))) => reply(answer),
        Ok(Ok((_, true))) | Err(_) => reply((
            503,
            json!({ "error": format!(
                "the request's work took longer than this server allows ({} s): ask for less (fewer games or moves, a lower level)",
                shared.time_limit.as_secs_f64()
            ) }),
        )),
        Ok(Err(_)) => reply((500, json!({ "error": "the request's work failed" }))),
    }
}

/// Asks a request's work to stop when the request is dropped: answered
/// at its time limit, or its client gone.
struct AskOnDrop(runs::Cancel);

impl Drop for AskOnDrop {
    fn drop(&mut self) {
        self.0.ask();
    }
}

/// Serves on `listener` until Ctrl-C, calling `ready` with the address
/// once it listens. A stop answers the requests under way within
/// [`SHUTDOWN_GRACE`] (their work asked to stop past it), then closes
/// every connection; a second Ctrl-C ends the process at once.
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
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        ready(address);
        accept(listener, router(time_limit), time_limit).await;
        Ok(())
    });
    // (Work still under way was asked to stop with its connection: it
    // is not waited for past a moment.)
    runtime.shutdown_timeout(Duration::from_millis(500));
    served
}

/// Takes connections until Ctrl-C, at most [`MAX_CONNECTIONS`] open at
/// once, each served on a task of its own; then stops them.
async fn accept(listener: tokio::net::TcpListener, app: Router, time_limit: Duration) {
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        // Finished connections are forgotten as others come.
        while connections.try_join_next().is_some() {}
        let permit = tokio::select! {
            _ = &mut ctrl_c => break,
            p = open.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
        };
        let stream = tokio::select! {
            _ = &mut ctrl_c => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // (Out of files, say: a moment, then on.)
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let served = connection(stream, app.clone(), stopping.clone(), time_limit);
        connections.spawn(async move {
            served.await;
            drop(permit);
        });
    }
    drop(listener);
    // A second Ctrl-C ends the process at once.
    tokio::spawn(async {
        if tokio::signal::ctrl_c().await.is_ok() {
            std::process::exit(130);
        }
    });
    let _ = stop.send(true);
    let drained = tokio::time::timeout(SHUTDOWN_GRACE, async {
        while connections.join_next().await.is_some() {}
    });
    if drained.await.is_err() {
        // (Each connection's request, dropped, asks its work to stop.)
        connections.shutdown().await;
    }
}

/// Serves one connection: HTTP/1.1, its headers within
/// [`HEADER_TIMEOUT`] (and no longer idle), for [`CONNECTION_TIME`]
/// beside its requests' `time_limit`, and closed gracefully when the
/// server stops.
async fn connection(
    stream: impl tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
    app: Router,
    mut stopping: tokio::sync::watch::Receiver<bool>,
    time_limit: Duration,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let served = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .serve_connection(
            TokioIo::new(stream),
            hyper_util::service::TowerToHyperService::new(app),
        );
    tokio::pin!(served);
    enum Ended {
        Served,
        Stopping,
        Lived,
    }
    let ended = tokio::select! {
        _ = served.as_mut() => Ended::Served,
        _ = stopping.changed() => Ended::Stopping,
        _ = tokio::time::sleep(time_limit + CONNECTION_TIME) => Ended::Lived,
    };
    // The request under way is answered, then the connection closed:
    // when the server stops, within its grace; when the connection has
    // lived its time, within the request's own time (its body's and its
    // work's).
    let grace = match ended {
        Ended::Served => return,
        Ended::Stopping => SHUTDOWN_GRACE,
        Ended::Lived => BODY_TIMEOUT + time_limit + SHUTDOWN_GRACE,
    };
    served.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(grace, served).await;
}

/// What the server answers to `request`, bytes a client sent on one
/// connection (then closed its side), served in memory as a connection
/// of `sow serve` is, under `time_limit`: the fuzz target `http`.
pub fn answer_bytes(request: &[u8], time_limit: Duration) -> std::io::Result<Vec<u8>> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let answered = runtime.block_on(async {
        let (client, server) = tokio::io::duplex(64 * 1024);
        let (_stop, stopping) = tokio::sync::watch::channel(false);
        tokio::spawn(connection(server, router(time_limit), stopping, time_limit));
        let (mut from, mut to) = tokio::io::split(client);
        let send = async {
            to.write_all(request).await?;
            to.shutdown().await
        };
        let mut answer = Vec::new();
        let receive = from.read_to_end(&mut answer);
        let limit = time_limit + BODY_TIMEOUT + HEADER_TIMEOUT;
        let (_, received) = tokio::time::timeout(limit, async { tokio::join!(send, receive) })
            .await
            .map_err(|_| std::io::Error::other("the connection was not closed in time"))?;
        // (What was sent may not all be read: a server answers, and
        // closes, once it knows the request is bad.)
        received?;
        Ok::<_, std::io::Error>(answer)
    });
    runtime.shutdown_timeout(Duration::from_millis(100));
    answered
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

    /// A connection kept in use is closed once it has lived
    /// [`CONNECTION_TIME`] beside the time limit, every request it was
    /// sent before then answered. (On tokio's paused clock, which moves
    /// on to the next timer whenever nothing else can run.)
    #[tokio::test(start_paused = true)]
    async fn a_connection_is_closed_once_it_has_lived_its_time() {
        let time_limit = Duration::from_secs(5);
        let (client, server) = tokio::io::duplex(1 << 20);
        let (_stop, stopping) = tokio::sync::watch::channel(false);
        let started = tokio::time::Instant::now();
        tokio::spawn(connection(server, router(time_limit), stopping, time_limit));
        let (from, mut to) = tokio::io::split(client);
        let mut from = tokio::io::BufReader::new(from);
        // A request every 7 s (within HEADER_TIMEOUT of the last), until
        // the connection is closed.
        let (mut sent, mut answered) = (0, 0);
        let closed = loop {
            assert!(sent < 100, "never closed");
            let request = b"GET /api/language HTTP/1.1\r\nHost: x\r\n\r\n";
            if to.write_all(request).await.is_err() {
                break started.elapsed();
            }
            sent += 1;
            let mut status = String::new();
            if from.read_line(&mut status).await.unwrap_or(0) == 0 {
                break started.elapsed();
            }
            assert!(status.starts_with("HTTP/1.1 200"), "{status}");
            let mut length = 0;
            loop {
                let mut line = String::new();
                from.read_line(&mut line).await.expect("a header");
                if line == "\r\n" {
                    break;
                }
                if let Some(n) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = n.trim().parse().expect("a length");
                }
            }
            let mut body = vec![0; length];
            from.read_exact(&mut body).await.expect("the body");
            answered += 1;
            tokio::time::sleep(Duration::from_secs(7)).await;
        };
        let lived = time_limit + CONNECTION_TIME;
        assert!(
            (lived..lived + Duration::from_secs(8)).contains(&closed),
            "closed after {closed:?}"
        );
        // (The one sent after the close, if it could be, is not answered:
        // a client opens another connection for it.)
        assert!(
            answered >= sent - 1 && answered == 10,
            "{answered} of {sent}"
        );
    }
}
