import type { ColumnType, JSONColumnType } from 'kysely';

/** Jobs and their per-line errors (migrations/0015_jobs.sql). */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Counter = ColumnType<number, number | undefined, number>;

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobTable {
  store_id: string;
  id: string;
  type: string;
  resource: string;
  status: ColumnType<JobStatus, JobStatus | undefined, JobStatus>;
  params: JSONColumnType<Record<string, unknown>, string | undefined, string>;
  total: number | null;
  processed: Counter;
  created: Counter;
  updated: Counter;
  failed: Counter;
  // bigint: pg returns it as text
  position_bytes: ColumnType<string, number | string | undefined, number | string>;
  position_line: Counter;
  cancel_requested: ColumnType<boolean, boolean | undefined, boolean>;
  lease_token: string | null;
  lease_until: Timestamp | null;
  error: string | null;
  created_at: CreatedAt;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  updated_at: Timestamp;
}

export interface JobErrorTable {
  store_id: string;
  job_id: string;
  line: number;
  code: string;
  message: string;
  details: JSONColumnType<unknown[], string | undefined, string>;
}

export interface JobTables {
  jobs: JobTable;
  job_errors: JobErrorTable;
}
