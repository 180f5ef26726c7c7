import { Counter, Gauge, type Registry } from 'prom-client';
import type { ReadReason, ReplicaState } from '../db/index.js';

/**
 * Read replicas (docs/scaling.md §4): each replica's lag and state as the probe last read them (no statement
 * at scrape time), and this process's routed reads by where they went and why.
 */
export function registerReplicaMetrics(registry: Registry, replicas: () => ReplicaState[]) {
  new Gauge({
    name: 'storefront_replica_lag_seconds',
    help: 'How long ago the primary was at a WAL position this replica has not replayed yet (absent while unknown)',
    labelNames: ['replica'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { name, lagMs } of replicas()) if (lagMs !== null) this.set({ replica: name }, lagMs / 1000);
    },
  });
  new Gauge({
    name: 'storefront_replica_up',
    help: 'Whether the replica answered the last probe as a standby (1) or not (0)',
    labelNames: ['replica'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { name, up } of replicas()) this.set({ replica: name }, up ? 1 : 0);
    },
  });
  const reads = new Counter({
    name: 'storefront_reads_total',
    help: 'Routed reads (GETs of the API) by target (primary, replica) and reason (caught-up, waited, behind, no-replica, replica-failed)',
    labelNames: ['target', 'reason'],
    registers: [registry],
  });
  return (target: 'primary' | 'replica', reason: ReadReason) => reads.inc({ target, reason });
}
