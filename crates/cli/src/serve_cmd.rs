//! `warboard serve`: the game server (docs/server.md).

use clap::Args;
use std::net::SocketAddr;
use warboard_server::mail::MailConfig;
use warboard_server::Config;

#[derive(Args)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, env = "WARBOARD_LISTEN", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Where games and accounts are kept: sqlite://FILE (created with its
    /// schema on first start) or postgres://USER@HOST/DB (for several
    /// servers on one database).
    #[arg(long, env = "WARBOARD_DATABASE", default_value = "sqlite://warboard.db")]
    database: String,
    /// Mark the session cookie Secure: set it when the server is reached
    /// over HTTPS (behind a proxy that terminates TLS).
    #[arg(long, env = "WARBOARD_SECURE_COOKIES")]
    secure_cookies: bool,
    /// Games one account may have created and not finished.
    #[arg(long, env = "WARBOARD_MAX_GAMES_PER_ACCOUNT", default_value_t = 50)]
    max_games_per_account: i64,
    /// WebSocket connections one account may hold at once.
    #[arg(long, env = "WARBOARD_MAX_CONNECTIONS_PER_ACCOUNT", default_value_t = 32)]
    max_connections_per_account: usize,
    /// Computer players thinking at once (default: one per core).
    #[arg(long, env = "WARBOARD_THINKERS")]
    thinkers: Option<usize>,
    /// The mail server for "your turn" mail: smtp://USER:PASS@HOST:PORT
    /// (plain), smtp://USER:PASS@HOST?tls=required (STARTTLS, port 587) or
    /// smtps://USER:PASS@HOST (TLS, port 465). Unset: the server sends no
    /// mail. Needs --mail-from and --public-url.
    #[arg(long, env = "WARBOARD_SMTP_URL", hide_env_values = true)]
    smtp_url: Option<String>,
    /// Who turn mail comes from: `turns@club.example` or
    /// `warboard <turns@club.example>`.
    #[arg(long, env = "WARBOARD_MAIL_FROM")]
    mail_from: Option<String>,
    /// The server as players reach it, for the links in mails
    /// (e.g. https://club.example).
    #[arg(long, env = "WARBOARD_PUBLIC_URL")]
    public_url: Option<String>,
    /// Where the witness for games played by e-mail fetches drand
    /// quicknet's rounds (each checked against the chain's key before it is
    /// passed on; docs/pbem.md). Default: drand's own API.
    #[arg(long, env = "WARBOARD_DRAND_URL")]
    drand_url: Option<String>,
    /// An account to make an administrator (docs/server.md, "Moderation"):
    /// when the server starts, or when the account signs up. Repeatable;
    /// each grant is in the audit log. WARBOARD_ADMINS: names separated by
    /// commas.
    #[arg(long = "admin", value_name = "NAME", env = "WARBOARD_ADMINS", value_delimiter = ',')]
    admins: Vec<String>,
    /// What the log shows, as tracing's filter (e.g. `info`,
    /// `warboard_server=debug`); RUST_LOG is read when this is unset.
    #[arg(long, env = "WARBOARD_LOG")]
    log: Option<String>,
}

pub fn run(args: ServeArgs) -> Result<(), String> {
    let filter = args.log.clone().or_else(|| std::env::var("RUST_LOG").ok()).unwrap_or_else(|| "info".into());
    let filter = tracing_subscriber::EnvFilter::try_new(&filter).map_err(|e| format!("--log {filter}: {e}"))?;
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();
    let mail = match (args.smtp_url, args.mail_from, args.public_url) {
        (None, ..) => None,
        (Some(smtp_url), Some(from), Some(public_url)) => Some(MailConfig { smtp_url, from, public_url }),
        (Some(_), from, public_url) => {
            let missing = [(from.is_none(), "--mail-from"), (public_url.is_none(), "--public-url")];
            let missing = missing.iter().filter(|m| m.0).map(|m| m.1).collect::<Vec<_>>().join(" and ");
            return Err(format!("--smtp-url turns mail on, which also needs {missing}: who mails come from, where links lead"));
        }
    };
    let mut config = Config {
        listen: args.listen,
        database: args.database,
        secure_cookies: args.secure_cookies,
        max_games_per_account: args.max_games_per_account,
        max_connections_per_account: args.max_connections_per_account,
        mail,
        beacon: match args.drand_url {
            Some(url) => warboard_server::witness::BeaconConfig::QuicknetFrom { url },
            None => warboard_server::witness::BeaconConfig::Quicknet,
        },
        admins: args.admins,
        ..Config::default()
    };
    if let Some(n) = args.thinkers {
        config.thinkers = n.max(1);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(warboard_server::serve(config, shutdown_signal()))
}

/// Ctrl-C or SIGTERM: stop taking connections, finish what is open.
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = interrupt => {}
        _ = terminate => {}
    }
    tracing::info!("shutting down: finishing open requests");
}
