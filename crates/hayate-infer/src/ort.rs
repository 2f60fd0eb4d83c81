//! ONNX Runtime through the `ort` crate, loaded at run time (`load-dynamic`): the fast CPU path
//! and the way to CUDA/TensorRT execution providers. Only built with the `ort` cargo feature;
//! the library is never downloaded: it comes from `ORT_DYLIB_PATH`, else from the Python
//! package of a `pip install onnxruntime` (see [`library_path`]), else the system's search path.

use crate::backend::{Backend, BackendError};
use crate::batch::{Batch, POLICY_LEN, copy_outputs};
use hayate_nn::{INPUT1_PLANES, INPUT2_PLANES};
use ort::session::Session;
use ort::value::Tensor;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A dlshogi-format ONNX model in an ONNX Runtime session.
pub struct OrtBackend {
    path: String,
    session: Session,
}

impl std::fmt::Debug for OrtBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OrtBackend")
            .field("path", &self.path)
            .finish()
    }
}

impl OrtBackend {
    /// Loads ONNX Runtime (the library [`library_path`] finds) and the model, for evaluations
    /// on `threads` CPU threads.
    ///
    /// # Errors
    /// [`BackendError::Unavailable`] when the ONNX Runtime library cannot be loaded,
    /// [`BackendError::Load`] when the model cannot.
    pub fn load(path: &Path, threads: usize) -> Result<OrtBackend, BackendError> {
        let name = path.display().to_string();
        init_library();
        // ort panics when the shared library is missing: turn that into an error.
        let session = std::panic::catch_unwind(|| {
            Session::builder()
                .and_then(|b| b.with_intra_threads(threads.max(1)))
                .and_then(|b| b.with_inter_threads(1))
                // Idle pool threads would spin on a core the search and the mate threads need
                // (a two-core machine runs out of time that way).
                .and_then(|b| b.with_intra_op_spinning(false))
                .and_then(|b| b.commit_from_file(path))
        });
        let session = match session {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => {
                return Err(BackendError::Load {
                    path: name,
                    message: e.to_string(),
                });
            }
            Err(_) => {
                return Err(BackendError::Unavailable(
                    "cannot load the ONNX Runtime library (set ORT_DYLIB_PATH)".to_string(),
                ));
            }
        };
        Ok(OrtBackend {
            path: name,
            session,
        })
    }
}

impl Backend for OrtBackend {
    fn name(&self) -> String {
        match library_path() {
            Some(lib) => format!("onnxruntime {} ({})", self.path, lib.display()),
            None => format!("onnxruntime {}", self.path),
        }
    }

    fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError> {
        let n = batch.len();
        if n == 0 {
            return Ok(());
        }
        let run = |e: ort::Error| BackendError::Run(e.to_string());
        let in1 = Tensor::from_array(([n, INPUT1_PLANES, 9, 9], batch.input1_used().to_vec()))
            .map_err(run)?;
        let in2 = Tensor::from_array(([n, INPUT2_PLANES, 9, 9], batch.input2_used().to_vec()))
            .map_err(run)?;
        let outputs = self
            .session
            .run(ort::inputs!["input1" => in1, "input2" => in2])
            .map_err(run)?;
        let (_, policy) = outputs["output_policy"]
            .try_extract_tensor::<f32>()
            .map_err(run)?;
        let (_, value) = outputs["output_value"]
            .try_extract_tensor::<f32>()
            .map_err(run)?;
        copy_outputs(
            (policy, value),
            (&mut batch.policy[..n * POLICY_LEN], &mut batch.value[..n]),
        )
    }
}

/// The ONNX Runtime library this process uses: `ORT_DYLIB_PATH` when set, else the
/// `libonnxruntime.so*` of the Python package `onnxruntime` (asked of `python3`, then looked for
/// in the usual site-packages folders). `None`: the system's search path decides. Found once.
pub fn library_path() -> Option<PathBuf> {
    static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOUND
        .get_or_init(|| match std::env::var_os("ORT_DYLIB_PATH") {
            Some(p) if !p.is_empty() => Some(PathBuf::from(p)),
            _ => find_python_library(),
        })
        .clone()
}

/// Points `ort` at [`library_path`] before its first use (once per process).
fn init_library() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        if let Some(lib) = library_path() {
            // A failure here shows again, as an error, when the session is built.
            let _ = std::panic::catch_unwind(|| ort::init_from(lib.display().to_string()).commit());
        }
    });
}

/// The library inside the `onnxruntime` Python package, wherever Python installed it.
fn find_python_library() -> Option<PathBuf> {
    let mut dirs = python_package_dir().into_iter().collect::<Vec<_>>();
    dirs.extend(
        site_package_dirs()
            .into_iter()
            .map(|d| d.join("onnxruntime")),
    );
    dirs.iter().find_map(|d| library_in(&d.join("capi")))
}

/// `onnxruntime.__file__`'s folder, as the `python3` on the path sees it.
fn python_package_dir() -> Option<PathBuf> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import os, onnxruntime; print(os.path.dirname(onnxruntime.__file__))",
        ])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let dir = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !dir.trim().is_empty()).then(|| PathBuf::from(dir.trim()))
}

/// The usual site-packages folders of user and system Pythons.
fn site_package_dirs() -> Vec<PathBuf> {
    let mut roots = vec![PathBuf::from("/usr/lib"), PathBuf::from("/usr/local/lib")];
    if let Some(home) = std::env::var_os("HOME") {
        roots.push(PathBuf::from(home).join(".local/lib"));
    }
    let mut dirs = Vec::new();
    for root in roots {
        let Ok(entries) = std::fs::read_dir(&root) else {
            continue;
        };
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("python3") {
                dirs.push(e.path().join("site-packages"));
                dirs.push(e.path().join("dist-packages"));
            }
        }
    }
    dirs
}

/// The `libonnxruntime.so*` (or `.dylib`, `.dll`) in `dir`, the shortest name first
/// (`libonnxruntime.so.1.23.2` before `libonnxruntime_providers_shared.so`).
pub fn library_in(dir: &Path) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with("libonnxruntime.so")
                    || n == "libonnxruntime.dylib"
                    || n == "onnxruntime.dll"
            })
        })
        .collect();
    found.sort_by_key(|p| p.as_os_str().len());
    found.into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_is_found_among_the_wheel_files() {
        let dir = std::env::temp_dir().join(format!("hayate-ort-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        for f in [
            "libonnxruntime_providers_shared.so",
            "onnxruntime_pybind11_state.so",
            "libonnxruntime.so.1.23.2",
        ] {
            std::fs::write(dir.join(f), b"").expect("file");
        }
        let found = library_in(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            found.and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned())),
            Some("libonnxruntime.so.1.23.2".to_string())
        );
    }
}
