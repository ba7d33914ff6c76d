//! Environments stepped from Python (`schedlab.gym`): an episode runs through schedlab's engine
//! on a thread of its own, and each choice is handed over a pair of rendezvous channels, so the
//! engine and the caller alternate and an episode is a pure function of its inputs, seed and
//! actions.
//!
//! - [`rltune::RlTuneEpisodes`]: RLTune's job ordering.
//! - [`dl2::Dl2Episodes`]: DL2's slot-wise allocation of workers and parameter servers.

pub mod dl2;
pub mod rltune;

use crate::SchedlabError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

/// An episode under way on its own thread: it sends messages `M` and waits for actions.
pub(crate) struct EpisodeThread<M> {
    /// What the episode says, and where the actions go (`None` once closed).
    channels: Option<(Receiver<M>, SyncSender<Option<usize>>)>,
    thread: Option<JoinHandle<()>>,
}

impl<M: Send + 'static> EpisodeThread<M> {
    /// Starts `body` on a thread named `name` with its ends of the channels.
    pub(crate) fn spawn(
        name: String,
        body: impl FnOnce(SyncSender<M>, Receiver<Option<usize>>) + Send + 'static,
    ) -> PyResult<EpisodeThread<M>> {
        let (messages_in, messages) = sync_channel(0);
        let (actions, actions_out) = sync_channel(0);
        let thread = std::thread::Builder::new()
            .name(name)
            .spawn(move || body(messages_in, actions_out))
            .map_err(|e| error(format!("cannot start the episode's thread: {e}")))?;
        Ok(EpisodeThread { channels: Some((messages, actions)), thread: Some(thread) })
    }

    /// The episode's next message, with the GIL released while it runs.
    pub(crate) fn receive(&mut self, py: Python<'_>) -> PyResult<M> {
        self.exchange(py, None, false)
    }

    /// Sends `action` and waits for the episode's next message.
    pub(crate) fn act(&mut self, py: Python<'_>, action: Option<usize>) -> PyResult<M> {
        self.exchange(py, action, true)
    }

    fn exchange(&mut self, py: Python<'_>, action: Option<usize>, send: bool) -> PyResult<M> {
        // The channels go to the detached closure (a receiver stays on one thread at a time).
        let (messages, actions) = self.channels.take().ok_or_else(|| error("the episode has ended"))?;
        let (message, channels) = py.detach(move || {
            let sent = if send { actions.send(action).is_ok() } else { true };
            let message = if sent { messages.recv().ok() } else { None };
            (message, (messages, actions))
        });
        self.channels = Some(channels);
        message.ok_or_else(|| error("the episode's thread ended without a word"))
    }
}

impl<M> Drop for EpisodeThread<M> {
    fn drop(&mut self) {
        // Closing both channels ends the episode thread at its next exchange; waiting for it
        // keeps no thread behind.
        self.channels = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

pub(crate) fn error(message: impl std::fmt::Display) -> PyErr {
    SchedlabError::new_err(message.to_string())
}

/// The error of a step with no episode running: before the first reset, or after an episode
/// ended (Gymnasium's rule: reset after `terminated`).
pub(crate) fn no_episode(ended: bool) -> PyErr {
    if ended {
        error("step after the episode ended (terminated): call reset() to start another")
    } else {
        error("step before reset: call reset() first")
    }
}

/// Little-endian float32 bytes (numpy reads them with `frombuffer`).
pub(crate) fn float_bytes<'py>(py: Python<'py>, values: &[f32]) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = values.iter().flat_map(|value| value.to_le_bytes()).collect();
    PyBytes::new(py, &bytes)
}

/// One byte per flag.
pub(crate) fn mask_bytes<'py>(py: Python<'py>, mask: &[bool]) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = mask.iter().map(|&flag| u8::from(flag)).collect();
    PyBytes::new(py, &bytes)
}
