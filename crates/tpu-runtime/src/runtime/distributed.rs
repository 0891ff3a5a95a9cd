//! A rank's side of `torch.distributed`: its seat in the run's `World`, the
//! collectives and messages it starts (inputs read from its own device, the
//! world's outputs written back into its own tensors), the work handles
//! `async_op=True` returns, and where in its kernel stream each communication
//! started and was waited for, which the world's simulated timeline needs.

use super::{Runtime, RuntimeError};
use crate::distributed::{CollectiveCall, World};
use crate::tensor::Tensor;
use std::cell::RefCell;
use std::rc::Rc;

/// A rank's place in a multi-rank run.
#[derive(Clone)]
pub struct WorldSeat {
    pub world: Rc<RefCell<World>>,
    pub rank: usize,
}

/// A started collective or message, until the program waits for it.
pub(crate) struct Work {
    ticket: usize,
    /// Where its outputs go: one tensor per output buffer, or one tensor
    /// that takes them all one after another (`all_gather_into_tensor`).
    outputs: Vec<Tensor>,
    waited: bool,
}

/// Where a communication sits in a rank's stream: started (or waited for)
/// after the rank's first `after_ops` ops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CommItem {
    pub after_ops: usize,
    pub event: usize,
    pub wait: bool,
}

/// Makes `n` runtimes for the ranks of a world a program starts: on the
/// same backend and clock as the runtime that starts it, each on a chip of a
/// slice with a chip per rank; or says why it cannot.
pub type WorldMaker = Box<dyn FnMut(usize) -> Result<Vec<Runtime>, String>>;

impl Runtime {
    /// How this runtime's programs get the runtimes of the worlds they
    /// start (`torch.multiprocessing.spawn`); without one they cannot.
    pub fn set_world_maker(&mut self, maker: WorldMaker) {
        self.world_maker = Some(maker);
    }

    /// `n` runtimes for the ranks of a world this runtime's program starts.
    pub fn make_world(&mut self, n: usize) -> Result<Vec<Runtime>, String> {
        match &mut self.world_maker {
            Some(make) => make(n),
            None => Err("this runtime cannot start processes (its embedder gave it no way to make a world of ranks)".into()),
        }
    }

    /// Seats this runtime as `rank` of `world` for the runs that follow.
    pub fn join_world(&mut self, world: Rc<RefCell<World>>, rank: usize) {
        self.world = Some(WorldSeat { world, rank });
    }

    pub fn world_seat(&self) -> Option<&WorldSeat> {
        self.world.as_ref()
    }

    /// Where this rank's communications sat in its stream, taken for the
    /// world's Report.
    /// Notes a DeviceMesh or a DTensor for the Report's sharding record.
    pub fn note_mesh(&mut self, mesh: crate::distributed::MeshReport) {
        self.sharding.meshes.push(mesh);
    }

    pub fn note_dtensor(&mut self, tensor: crate::distributed::ShardedTensor) {
        self.sharding.tensors.push(tensor);
    }

    /// Notes what the chip holds at an FSDP phase: `groups` are the
    /// parameters, gradients, optimiser state and gathered parameters (in
    /// that order), and `held` every tensor FSDP keeps that is not counted
    /// as held memory (whole parameters already resharded, whose storage
    /// PyTorch would have freed), so that none of them counts as `other`.
    pub fn note_memory(
        &mut self,
        mut point: crate::distributed::MemoryPoint,
        groups: [&[Tensor]; 4],
        held: &[Tensor],
    ) {
        if self.sharding.memory.len() >= crate::distributed::MAX_MEMORY_POINTS {
            self.sharding.memory_dropped += 1;
            return;
        }
        let (bytes, counted) = self.memory_by_kind(&groups, held);
        [
            point.parameters,
            point.gradients,
            point.optimizer_state,
            point.gathered_parameters,
        ] = bytes;
        point.other = self.live_accelerator_bytes().saturating_sub(counted);
        self.sharding.memory.push(point);
    }

    pub fn take_sharding(&mut self) -> crate::distributed::ShardingNotes {
        std::mem::take(&mut self.sharding)
    }

    pub fn take_comm_items(&mut self) -> Vec<CommItem> {
        self.works.clear();
        std::mem::take(&mut self.comm_items)
    }

    fn seat(&self) -> Result<WorldSeat, RuntimeError> {
        self.world.clone().ok_or_else(|| {
            RuntimeError::Message(
                "Default process group has not been initialized, please make sure to call init_process_group.".into(),
            )
        })
    }

    /// The values of `t` for a collective: read from the device without a
    /// sync record (the collective itself is what the Report shows).
    async fn comm_input(&mut self, t: &Tensor) -> Result<crate::data::HostData, RuntimeError> {
        let dense = self.dense(t).await?;
        self.read_dense_quiet(&dense).await
    }

    /// Where backward last made `t`'s gradient, in this rank's op stream.
    pub fn grad_ready(&self, t: &Tensor) -> Option<usize> {
        self.grad_ready.get(&t.identity()).copied()
    }

    /// Keeps a started communication; it sits in the stream after the ops so
    /// far, or after the first `ready` ops when its inputs were ready then
    /// (a DDP bucket, started as backward made its last gradient).
    fn start_work(&mut self, ticket: usize, outputs: Vec<Tensor>, ready: Option<usize>) -> usize {
        let seat = self.world.as_ref().expect("a seat made the ticket");
        if let Some(event) = seat.world.borrow().ticket_event(ticket) {
            self.comm_items.push(CommItem {
                after_ops: ready.unwrap_or(self.ops.len()).min(self.ops.len()),
                event,
                wait: false,
            });
        }
        self.works.push(Work {
            ticket,
            outputs,
            waited: false,
        });
        self.works.len() - 1
    }

    /// Starts collective `call` of `group` (0: every rank) with `input`,
    /// to be written into `outputs` when waited for; returns the work handle.
    #[allow(clippy::too_many_arguments)]
    pub async fn dist_collective(
        &mut self,
        group: usize,
        name: &str,
        call: CollectiveCall,
        input: Option<&Tensor>,
        outputs: Vec<Tensor>,
        (cause, ready): (Option<String>, Option<usize>),
    ) -> Result<usize, RuntimeError> {
        let seat = self.seat()?;
        let (data, shape) = match input {
            Some(t) => (self.comm_input(t).await?, t.dims()),
            None => (crate::data::HostData::F32(Vec::new()), Vec::new()),
        };
        let ticket = seat
            .world
            .borrow_mut()
            .start_collective(seat.rank, group, name, call, data, shape, self.line, cause)
            .map_err(RuntimeError::Message)?;
        Ok(self.start_work(ticket, outputs, ready))
    }

    /// `dist.send` / `isend`: buffered, so the work is done at once.
    pub async fn dist_send(
        &mut self,
        t: &Tensor,
        dst: usize,
        tag: i64,
    ) -> Result<usize, RuntimeError> {
        let seat = self.seat()?;
        let data = self.comm_input(t).await?;
        let ticket = seat
            .world
            .borrow_mut()
            .send(seat.rank, dst, tag, data, t.dims(), self.line);
        Ok(self.start_work(ticket, Vec::new(), None))
    }

    /// `dist.recv` / `irecv` into `out`, from `src` (any rank when `None`).
    pub fn dist_recv(
        &mut self,
        out: Tensor,
        src: Option<usize>,
        tag: i64,
    ) -> Result<usize, RuntimeError> {
        let seat = self.seat()?;
        let ticket = seat.world.borrow_mut().start_recv(
            seat.rank,
            (src, tag),
            (&out.dims(), out.dtype()),
            self.line,
        );
        Ok(self.start_work(ticket, vec![out], None))
    }

    /// `Work.is_completed()`.
    pub fn dist_is_completed(&self, work: usize) -> bool {
        match (&self.world, self.works.get(work)) {
            (Some(seat), Some(w)) => w.waited || seat.world.borrow().is_done(w.ticket),
            _ => true,
        }
    }

    /// `Work.wait()`: suspends this rank until the communication is done
    /// (the scheduler runs the other ranks meanwhile), then writes its
    /// outputs. Returns the sender's rank for a receive.
    pub async fn dist_wait(&mut self, work: usize) -> Result<Option<usize>, RuntimeError> {
        let seat = self.seat()?;
        let Some(w) = self.works.get_mut(work) else {
            return Err(RuntimeError::Message("unknown work handle".into()));
        };
        if std::mem::replace(&mut w.waited, true) {
            return Ok(None);
        }
        let ticket = w.ticket;
        let outputs = std::mem::take(&mut w.outputs);
        let outcome = std::future::poll_fn(|_| {
            match seat.world.borrow_mut().poll_ticket(seat.rank, ticket) {
                Some(done) => std::task::Poll::Ready(done),
                // The scheduler polls this rank again once the world has
                // moved on; nothing here needs waking.
                None => std::task::Poll::Pending,
            }
        })
        .await
        .map_err(RuntimeError::Message)?;
        let event = seat.world.borrow().ticket_event(ticket);
        if let Some(event) = event {
            if !self.comm_items.iter().any(|c| c.event == event && !c.wait) {
                // A receive is placed where it was matched.
                self.comm_items.push(CommItem {
                    after_ops: self.ops.len(),
                    event,
                    wait: false,
                });
            }
            self.comm_items.push(CommItem {
                after_ops: self.ops.len(),
                event,
                wait: true,
            });
        }
        let values = if outputs.len() == 1 && outcome.outputs.len() > 1 {
            vec![crate::distributed::concat(&outcome.outputs)]
        } else {
            outcome.outputs
        };
        for (t, data) in outputs.iter().zip(values) {
            if data.len() != t.numel() {
                return Err(RuntimeError::Message(format!(
                    "the received data has {} elements but the output tensor of shape {:?} has {}",
                    data.len(),
                    t.dims(),
                    t.numel()
                )));
            }
            let data = data.cast(t.dtype());
            let fresh = self.from_data(data, t.shape(), t.device()).await?;
            let grad = self.set_grad_enabled(false);
            let written = self.assign(t, fresh).await;
            self.set_grad_enabled(grad);
            written?;
        }
        Ok(outcome.src)
    }
}
