import { type Static, Type } from '@sinclair/typebox';
import { Envelope, ListEnvelope, ListQuery, Nullable, StringEnum, Timestamp } from '../shared/index.js';
import { JOB_STATUSES } from './jobs.tables.js';

export const Job = Type.Object(
  {
    id: Type.String(),
    type: Type.String({ description: 'what the job does: "import"' }),
    resource: Type.String({ description: 'the resource it works on: products, collections, customers, orders' }),
    status: StringEnum(JOB_STATUSES),
    total: Nullable(Type.Integer({ description: 'lines to process (non-blank lines of the file)' })),
    processed: Type.Integer(),
    created: Type.Integer(),
    updated: Type.Integer(),
    failed: Type.Integer(),
    createdAt: Timestamp,
    startedAt: Nullable(Timestamp),
    finishedAt: Nullable(Timestamp),
  },
  { title: 'Job' },
);
export type Job = Static<typeof Job>;

export const JobError = Type.Object(
  {
    line: Type.Integer({ description: 'the line of the file, counted from 1 (blank lines count)' }),
    code: Type.String({ description: 'the error code the API gives for the same body' }),
    message: Type.String(),
    details: Type.Array(Type.Object({ field: Type.String(), in: Type.String(), message: Type.String() })),
  },
  { title: 'JobError' },
);
export type JobError = Static<typeof JobError>;

export const JOB_SORTS = ['createdAt'] as const;
export const JobListQuery = ListQuery(JOB_SORTS, {
  status: Type.Optional(StringEnum(JOB_STATUSES)),
  resource: Type.Optional(Type.String({ maxLength: 64 })),
});
export type JobListQuery = Static<typeof JobListQuery>;

/** Errors are listed in line order: page (or cursor) and limit only. */
export const JobErrorsQuery = Type.Pick(ListQuery(JOB_SORTS), ['page', 'limit', 'cursor']);
export type JobErrorsQuery = Static<typeof JobErrorsQuery>;

export const JobEnvelope = Envelope(Job);
export const JobListEnvelope = ListEnvelope(Job);
export const JobErrorListEnvelope = ListEnvelope(JobError);
