//! Connections: accepted up to a number at once, each served by hyper with a
//! time limit on every request's head (which also closes a connection that
//! idles between requests) and on a client that stops taking an answer, and
//! every refusal made here in JSON like the routes' own.
//!
//! Who keeps a place when the connections are all taken: a connection with
//! a request in progress keeps it; one with none for a second (idle
//! between requests, or not yet sent a whole head) makes way for a new
//! connection — the one idle longest of the address holding the most. One
//! address holds at most `Limits::per_address` connections: past them its
//! own idle connection makes way. So idle sockets, however many one client
//! opens, never refuse another client's request for long; only requests in
//! progress (and connections opened within the second) fill the server.
//! A new connection refused gets a 503, its request read first so that the
//! client reads the answer.
//!
//! axum's `serve` has no connection limit and no read timeout, so the accept
//! loop is written here, over hyper's HTTP/1 connection builder.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

use super::Limits;
use super::wire::ErrorBody;

/// Accept and serve connections until the listener fails.
pub async fn serve(listener: TcpListener, router: Router, limits: Limits) -> io::Result<()> {
    let open = Arc::new(Open::new(&limits));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of file descriptors, or a connection reset before it was
            // taken: wait a moment and go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let conn = match open.admit(peer.ip()) {
            Ok(conn) => conn,
            Err(why) => {
                tokio::spawn(refuse_busy(stream, why));
                continue;
            }
        };
        let router = router.clone();
        let limits = limits.clone();
        let open = open.clone();
        tokio::spawn(async move {
            let _ = connection(stream, router, &limits, &conn).await;
            open.closed(conn.id);
        });
    }
}

/// The connections open, each with its address and what it is doing.
struct Open {
    conns: Mutex<HashMap<u64, Arc<Conn>>>,
    next: AtomicU64,
    most: usize,
    per_address: usize,
    /// When the server started: the clock idle times are counted on.
    epoch: Instant,
    /// How long a connection is idle before it makes way, in ms
    /// ([`IDLE_BEFORE_MAKING_WAY`]).
    make_way_after: u64,
}

/// One open connection.
struct Conn {
    id: u64,
    addr: IpAddr,
    /// Requests in progress (from the head read to the answer made).
    busy: AtomicUsize,
    /// When it last began or ended a request, or opened (ms since `epoch`).
    since: AtomicU64,
    /// Told to close, to make way for a new connection.
    close: Notify,
    epoch: Instant,
}

impl Conn {
    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// With no request in progress for at least `after` ms: a connection
    /// just opened, whose head is on its way, never makes way.
    fn idle(&self, after: u64) -> bool {
        self.busy.load(Ordering::SeqCst) == 0
            && self.now().saturating_sub(self.since.load(Ordering::SeqCst)) >= after
    }

    /// When it went idle, the connection opened first first among equals.
    fn idle_since(&self) -> (u64, u64) {
        (self.since.load(Ordering::SeqCst), self.id)
    }
}

/// How long a connection must have had no request in progress before it
/// makes way for a new one: seconds, so that a client's connections whose
/// requests are on their way are answered (a 503 at worst), never closed
/// unanswered.
const IDLE_BEFORE_MAKING_WAY: Duration = Duration::from_secs(1);

/// Why a new connection was refused (a 503's message).
struct Busy(String);

impl Open {
    fn new(limits: &Limits) -> Open {
        Open {
            conns: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
            most: limits.connections.max(1),
            per_address: limits.per_address.clamp(1, limits.connections.max(1)),
            epoch: Instant::now(),
            make_way_after: IDLE_BEFORE_MAKING_WAY.as_millis() as u64,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Conn>>> {
        self.conns.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a new connection from `addr`: a free one, or one an idle
    /// connection gives up (told to close, and counted gone at once);
    /// else why not.
    fn admit(&self, addr: IpAddr) -> Result<Arc<Conn>, Busy> {
        let mut conns = self.lock();
        let own = conns.values().filter(|c| c.addr == addr).count();
        if own >= self.per_address {
            let victim = idle_longest(
                conns.values().filter(|c| c.addr == addr),
                self.make_way_after,
            );
            let Some(victim) = victim else {
                return Err(Busy(format!(
                    "this address has {own} connections with a request in progress, the most one \
                     address may hold: try again in a moment"
                )));
            };
            make_way(&mut conns, victim);
        } else if conns.len() >= self.most {
            let Some(victim) = self.victim(&conns) else {
                return Err(Busy(format!(
                    "the server has {} connections with a request in progress, its limit: try \
                     again in a moment",
                    conns.len()
                )));
            };
            make_way(&mut conns, victim);
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn {
            id,
            addr,
            busy: AtomicUsize::new(0),
            since: AtomicU64::new(0),
            close: Notify::new(),
            epoch: self.epoch,
        });
        conn.since.store(conn.now(), Ordering::SeqCst);
        conns.insert(id, conn.clone());
        Ok(conn)
    }

    /// The connection to close for a new one when all are taken: idle, of
    /// the address that holds the most connections, idle longest.
    fn victim(&self, conns: &HashMap<u64, Arc<Conn>>) -> Option<u64> {
        let mut held: HashMap<IpAddr, usize> = HashMap::new();
        for c in conns.values() {
            *held.entry(c.addr).or_default() += 1;
        }
        conns
            .values()
            .filter(|c| c.idle(self.make_way_after))
            .max_by_key(|c| (held[&c.addr], std::cmp::Reverse(c.idle_since())))
            .map(|c| c.id)
    }

    /// Connection `id` has closed.
    fn closed(&self, id: u64) {
        self.lock().remove(&id);
    }
}

/// The idle connection of `conns` idle longest (for `after` ms at least).
fn idle_longest<'c>(conns: impl Iterator<Item = &'c Arc<Conn>>, after: u64) -> Option<u64> {
    conns
        .filter(|c| c.idle(after))
        .min_by_key(|c| c.idle_since())
        .map(|c| c.id)
}

/// Tell connection `id` to close, and count it gone.
fn make_way(conns: &mut HashMap<u64, Arc<Conn>>, id: u64) {
    if let Some(conn) = conns.remove(&id) {
        conn.close.notify_one();
    }
}

/// Serve one connection: every request's head must arrive within the read
/// time (an idle connection waits for the next head, so it closes too).
/// Told to make way, it closes once the answer under way, if any, is
/// written (hyper's graceful shutdown: an idle connection closes at once),
/// and within the read time in any case.
async fn connection(
    stream: TcpStream,
    router: Router,
    limits: &Limits,
    conn: &Arc<Conn>,
) -> hyper::Result<()> {
    let _ = stream.set_nodelay(true);
    let io = TokioIo::new(JsonRefusals::new(stream, limits.read));
    let service = Counted {
        inner: TowerToHyperService::new(router),
        conn: conn.clone(),
    };
    let served = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.read)
        .serve_connection(io, service);
    tokio::pin!(served);
    tokio::select! {
        done = served.as_mut() => return done,
        () = conn.close.notified() => {}
    }
    served.as_mut().graceful_shutdown();
    match tokio::time::timeout(limits.read, served).await {
        Ok(done) => done,
        Err(_) => Ok(()),
    }
}

/// A connection's service, counting its requests in progress.
struct Counted<S> {
    inner: S,
    conn: Arc<Conn>,
}

/// A request in progress on a connection, until dropped.
struct InProgress(Arc<Conn>);

impl InProgress {
    fn start(conn: &Arc<Conn>) -> InProgress {
        conn.busy.fetch_add(1, Ordering::SeqCst);
        conn.since.store(conn.now(), Ordering::SeqCst);
        InProgress(conn.clone())
    }
}

impl Drop for InProgress {
    fn drop(&mut self) {
        self.0.since.store(self.0.now(), Ordering::SeqCst);
        self.0.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The address a request came from, as the routes see it (a request's
/// extension): what "one at a time per client" counts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client(pub IpAddr);

impl<S, B> hyper::service::Service<hyper::Request<B>> for Counted<S>
where
    S: hyper::service::Service<hyper::Request<B>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn call(&self, mut request: hyper::Request<B>) -> Self::Future {
        request.extensions_mut().insert(Client(self.conn.addr));
        let in_progress = InProgress::start(&self.conn);
        let answer = self.inner.call(request);
        Box::pin(async move {
            let answer = answer.await;
            drop(in_progress);
            answer
        })
    }
}

/// One connection past the limit: its request's head read (up to
/// [`REFUSED_READ`] bytes, within a second), a 503 in JSON, then closed once
/// the client has had its answer (what it still sends read and dropped, up
/// to the same bound): closing with a request unread would reset the
/// connection, and the client would see no answer at all.
async fn refuse_busy(mut stream: TcpStream, Busy(message): Busy) {
    use tokio::io::AsyncReadExt;
    let response = json_response(503, "Service Unavailable", &message);
    let mut buf = vec![0u8; 8 << 10];
    let mut head: Vec<u8> = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        while head.len() < REFUSED_READ && !head.windows(4).any(|w| w == b"\r\n\r\n") {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => head.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(&response).await?;
        stream.shutdown().await?;
        let mut drained = 0;
        while drained < REFUSED_READ {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => drained += n,
            }
        }
        Ok::<(), io::Error>(())
    })
    .await;
}

/// The bytes of a refused connection's request read before and after its
/// 503, at most.
const REFUSED_READ: usize = 64 << 10;

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

    /// Connections that make way as soon as they are idle.
    fn open(connections: usize, per_address: usize) -> Open {
        let mut open = Open::new(&Limits {
            connections,
            per_address,
            ..Limits::default()
        });
        open.make_way_after = 0;
        open
    }

    #[test]
    fn a_connection_just_opened_does_not_make_way() {
        let open = Open::new(&Limits {
            connections: 2,
            per_address: 2,
            ..Limits::default()
        });
        let _first = open.admit(ip(1)).ok().unwrap();
        let _second = open.admit(ip(2)).ok().unwrap();
        // Both idle, but for less than a second: a third is refused.
        assert!(open.admit(ip(3)).is_err());
        assert!(open.admit(ip(1)).is_err());
    }

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[test]
    fn at_the_limit_an_idle_connection_of_the_address_holding_most_makes_way() {
        let open = open(4, 3);
        let a: Vec<_> = (0..3).map(|_| open.admit(ip(1)).ok().unwrap()).collect();
        let b = open.admit(ip(2)).ok().unwrap();
        // Full: a new address takes the place of the first idle of `a`.
        let c = open.admit(ip(3)).ok().unwrap();
        let kept: Vec<u64> = open.lock().keys().copied().collect();
        assert!(!kept.contains(&a[0].id) && kept.contains(&b.id) && kept.contains(&c.id));
        // Requests in progress keep their places: with every one busy, a
        // new connection is refused.
        let busy: Vec<_> = open.lock().values().map(InProgress::start).collect();
        assert!(open.admit(ip(4)).is_err());
        drop(busy);
        assert!(open.admit(ip(4)).is_ok());
    }

    #[test]
    fn one_address_holds_at_most_its_share_its_own_idle_making_way() {
        let open = open(10, 2);
        let first = open.admit(ip(1)).ok().unwrap();
        let second = open.admit(ip(1)).ok().unwrap();
        let _working = InProgress::start(&second);
        let third = open.admit(ip(1)).ok().unwrap();
        let kept: Vec<u64> = open.lock().keys().copied().collect();
        assert_eq!(kept.len(), 2);
        assert!(!kept.contains(&first.id) && kept.contains(&third.id));
        // Both of its places at work: its next connection is refused, and
        // another address still gets one.
        let _also = InProgress::start(&third);
        assert!(open.admit(ip(1)).is_err());
        assert!(open.admit(ip(2)).is_ok());
    }

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
