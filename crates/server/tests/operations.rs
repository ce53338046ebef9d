//! Running the server: it serves until told to stop, then closes its
//! WebSockets (going away) and returns; `/health` answers meanwhile.

mod common;

use futures_util::StreamExt;
use serde_json::json;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_server_closes_its_websockets_and_returns() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").expect("a port").local_addr().expect("an address").port();
    let dir = std::env::temp_dir().join(format!("warboard-ops-{}", warboard_server::store::new_id().expect("id")));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let config = warboard_server::Config {
        listen: format!("127.0.0.1:{port}").parse().expect("an address"),
        database: format!("sqlite://{}", dir.join("ops.db").display()),
        ..warboard_server::Config::default()
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(warboard_server::serve(config, async move {
        let _ = stopped.await;
    }));
    let addr = format!("127.0.0.1:{port}");
    let mut ready = false;
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(&addr).await.is_ok() {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(ready, "the server listens");
    let client = common::HttpClient { addr: addr.parse().expect("an address") };
    let (status, body) = client.http("GET", "/health", None, None).await;
    assert_eq!((status, body), (200, json!({"status": "ok"})));
    let (status, body) = client.http("POST", "/api/signup", None, Some(&json!({"name": "leaver", "password": "a long password"}))).await;
    assert_eq!(status, 201, "{body}");
    let token = body["token"].as_str().expect("a token").to_string();
    let (status, body) = client.http("POST", "/api/games", Some(&token), Some(&json!({"ruleset": "classic"}))).await;
    assert_eq!(status, 201, "{body}");
    let game = body["game"]["id"].as_str().expect("an id");
    let mut request = format!("ws://{addr}/api/games/{game}/ws").into_client_request().expect("a request");
    request.headers_mut().insert("Authorization", format!("Bearer {token}").parse().expect("a header"));
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await.expect("the socket opens");
    let hello = ws.next().await.expect("a hello").expect("a frame");
    assert!(matches!(hello, Message::Text(_)));
    stop.send(()).expect("the server waits for the signal");
    let closed = tokio::time::timeout(Duration::from_secs(5), ws.next()).await.expect("the socket hears within 5 s");
    match closed {
        Some(Ok(Message::Close(Some(frame)))) => assert_eq!(u16::from(frame.code), 1001),
        other => panic!("a close frame, going away: {other:?}"),
    }
    let result = tokio::time::timeout(Duration::from_secs(5), server).await.expect("serve returns within 5 s");
    assert_eq!(result.expect("no panic"), Ok(()));
    let _ = std::fs::remove_dir_all(&dir);
}
