//! Connections: accepted up to a number at once, each served by hyper with a
//! time limit on every request's head (which also closes a connection that
//! idles between requests) and on a client that stops taking an answer, and
//! every refusal made here in JSON like the routes' own.
//!
//! axum's `serve` has no connection limit and no read timeout, so the accept
//! loop is written here, over hyper's HTTP/1 connection builder.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use super::Limits;
use super::wire::ErrorBody;

/// Accept and serve connections until the listener fails.
pub async fn serve(listener: TcpListener, router: Router, limits: Limits) -> io::Result<()> {
    let open = Arc::new(Semaphore::new(limits.connections));
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of file descriptors, or a connection reset before it was
            // taken: wait a moment and go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            tokio::spawn(refuse_busy(stream, limits.connections));
            continue;
        };
        let router = router.clone();
        let limits = limits.clone();
        tokio::spawn(async move {
            let _ = connection(stream, router, &limits).await;
            drop(permit);
        });
    }
}

/// Serve one connection: every request's head must arrive within the read
/// time (an idle connection waits for the next head, so it closes too).
async fn connection(stream: TcpStream, router: Router, limits: &Limits) -> hyper::Result<()> {
    let _ = stream.set_nodelay(true);
    let io = TokioIo::new(JsonRefusals::new(stream, limits.read));
    hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.read)
        .serve_connection(io, TowerToHyperService::new(router))
        .await
}

/// One connection past the limit: a 503 in JSON, then closed.
async fn refuse_busy(mut stream: TcpStream, connections: usize) {
    let message =
        format!("the server has {connections} connections open, its limit: try again in a moment");
    let response = json_response(503, "Service Unavailable", &message);
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(&response).await?;
        stream.shutdown().await
    })
    .await;
}

/// A whole HTTP/1.1 response that closes the connection, with the body
/// `{"error": message}`.
fn json_response(status: u16, reason: &str, message: &str) -> Vec<u8> {
    let body = ErrorBody {
        error: message.to_string(),
    };
    let body = serde_json::to_string(&body).unwrap_or_default();
    format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A connection's stream, giving a JSON body to the refusals hyper answers
/// by itself, with an empty body, before a request reaches the routes: a
/// request head it cannot read (400), a target longer than it takes (414)
/// or a head too large (431). It recognises them as hyper writes them: a
/// response head with `content-length: 0` and no `content-type`, which no
/// route's answer has. It also ends a connection whose client stops taking
/// the answer: a write that makes no progress for the read time fails.
struct JsonRefusals<S> {
    inner: S,
    /// A rewritten refusal being written, and how much of it is written.
    pending: Option<(Vec<u8>, usize)>,
    /// How long a write may wait for the client, and the wait under way.
    stall: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<S> JsonRefusals<S> {
    fn new(inner: S, stall: Duration) -> JsonRefusals<S> {
        JsonRefusals {
            inner,
            pending: None,
            stall,
            stalled: None,
        }
    }

    /// A write is waiting for the client: an error once it has waited for
    /// the whole stall time, else still pending.
    fn waiting<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let stall = self.stall;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(stall)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client takes no answer",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// The JSON refusal that replaces `buf`, when `buf` is a bare refusal.
fn rewritten(buf: &[u8]) -> Option<Vec<u8>> {
    let rest = buf.strip_prefix(b"HTTP/1.1 ")?;
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    if end + 4 != buf.len() {
        return None;
    }
    let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
    if !head.contains("\r\ncontent-length: 0") || head.contains("\r\ncontent-type:") {
        return None;
    }
    let status: u16 = std::str::from_utf8(rest.get(..3)?).ok()?.parse().ok()?;
    let (reason, message) = match status {
        414 => (
            "URI Too Long",
            "the request's target (path and query) is too long",
        ),
        431 => (
            "Request Header Fields Too Large",
            "the request's headers are too large",
        ),
        400 => (
            "Bad Request",
            "the request is not HTTP/1.1 as the server reads it",
        ),
        505 => ("HTTP Version Not Supported", "the server speaks HTTP/1.1"),
        _ => return None,
    };
    Some(json_response(status, reason, message))
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonRefusals<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.pending.is_none()
            && let Some(bytes) = rewritten(buf)
        {
            self.pending = Some((bytes, 0));
        }
        let this = &mut *self;
        let Some((bytes, done)) = &mut this.pending else {
            return match Pin::new(&mut this.inner).poll_write(cx, buf) {
                Poll::Pending => this.waiting(cx),
                ready => {
                    this.stalled = None;
                    ready
                }
            };
        };
        while *done < bytes.len() {
            match Pin::new(&mut this.inner).poll_write(cx, &bytes[*done..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    *done += n;
                    this.stalled = None;
                }
                Poll::Pending => return this.waiting(cx),
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
            }
        }
        this.pending = None;
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_refusal_gets_a_json_body_and_an_answer_keeps_its_own() {
        let bare = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let json = String::from_utf8(rewritten(bare).unwrap()).unwrap();
        let (head, body) = json.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 414 ") && head.contains("application/json"));
        let value: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(value["error"].as_str().unwrap().contains("too long"));
        let answer = b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n";
        assert!(rewritten(answer).is_none());
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert!(rewritten(ok).is_none());
    }
}
