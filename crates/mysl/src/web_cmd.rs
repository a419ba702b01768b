//! `mysl web`: the local web UI (crates/web).

use std::process::ExitCode;

use clap::Args;

use crate::CliError;

#[derive(Args, Debug)]
pub struct WebArgs {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. The default answers only this computer; the page has no login, so do not
    /// expose it to a network you do not trust.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Opening book for the explorer and the engine: a Polyglot `.bin` or mysl `.mbk` file (default: the
    /// built-in book).
    #[arg(long)]
    book: Option<String>,
    /// Directory of endgame tables made by `mysl tb gen` (`*.mtb`), for the tablebase panel.
    #[arg(long, value_name = "DIR")]
    tb: Option<std::path::PathBuf>,
    /// Syzygy directories (`DIR1:DIR2`), for the endings `--tb` lacks (WDL and DTZ, no DTM).
    #[arg(long, value_name = "DIR")]
    syzygy: Option<String>,
    /// The most analyses searching at once (the page's analysis and "Analyse the game", all tabs
    /// together); more wait until one stops. Default: the number of cores.
    #[arg(long, value_name = "N")]
    analyses: Option<usize>,
}

pub fn run(args: WebArgs) -> Result<ExitCode, CliError> {
    let (book, book_name) = match &args.book {
        Some(path) => (
            Some(mysl_book::Book::open(path).map_err(|e| CliError::Input(e.to_string()))?),
            std::path::Path::new(path).file_name().map_or(path.clone(), |n| n.to_string_lossy().into_owned()),
        ),
        None => {
            (Some(mysl_book::default_book().map_err(|e| CliError::Failure(e.to_string()))?), "built-in".to_string())
        }
    };
    let mysl = match &args.tb {
        Some(dir) => {
            if !dir.is_dir() {
                return Err(CliError::Input(format!("--tb {}: not a directory", dir.display())));
            }
            let tables = mysl_tb::Tablebase::open_dir(dir);
            if tables.materials().is_empty() {
                eprintln!("mysl web: warning: --tb {}: no table files (*.mtb) there yet", dir.display());
            }
            Some(tables)
        }
        None => None,
    };
    // The engine's front over both: the engine's searches and the panel's Syzygy answers.
    let mut front = mysl_tb::Tablebases::new();
    if let Some(dir) = &args.tb {
        front.set_ours(dir).map_err(|e| CliError::Input(format!("--tb {}: {e}", dir.display())))?;
    }
    if let Some(path) = &args.syzygy {
        let n = front.add_syzygy_path(path).map_err(|e| CliError::Input(format!("--syzygy {path}: {e}")))?;
        if n == 0 {
            eprintln!("mysl web: warning: --syzygy {path}: no Syzygy files there");
        }
    }
    let name = match (&args.tb, &args.syzygy) {
        (Some(dir), None) => dir.file_name().map_or(dir.display().to_string(), |n| n.to_string_lossy().into_owned()),
        (None, Some(_)) => "Syzygy".to_string(),
        (Some(dir), Some(_)) => format!(
            "{} + Syzygy",
            dir.file_name().map_or(dir.display().to_string(), |n| n.to_string_lossy().into_owned())
        ),
        (None, None) => String::new(),
    };
    let syzygy = args.syzygy.is_some();
    let tablebase = (mysl.is_some() || syzygy).then(|| mysl_web::tablebase::Tablebases {
        mysl,
        front: Some(std::sync::Arc::new(front)),
        syzygy,
        name,
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Failure(format!("cannot start the server runtime: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
            .await
            .map_err(|e| CliError::Input(format!("cannot listen on {}:{}: {e}", args.host, args.port)))?;
        let addr = listener.local_addr().map_err(|e| CliError::Failure(e.to_string()))?;
        let url =
            if addr.is_ipv6() { format!("http://[{}]:{}/", addr.ip(), addr.port()) } else { format!("http://{addr}/") };
        println!("mysl web: listening on {url}");
        if !addr.ip().is_loopback() {
            eprintln!("mysl web: warning: listening on {} — anyone who can reach it can use the page", addr.ip());
        }
        if args.open {
            open_browser(&url);
        }
        let config = mysl_web::Config {
            host: args.host.clone(),
            port: addr.port(),
            book,
            book_name,
            tablebase,
            max_analyses: args.analyses,
        };
        mysl_web::serve(listener, config).await.map_err(|e| CliError::Failure(format!("server: {e}")))
    })?;
    Ok(ExitCode::SUCCESS)
}

fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(command).arg(url).spawn() {
        eprintln!("mysl web: could not open a browser ({command}: {e}); open {url} yourself");
    }
}
