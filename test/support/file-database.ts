import { afterAll, inject } from 'vitest';
import { createOwnDatabase } from './own-database.js';

// A setup file of the postgres project: each test file gets its own copy of the run's migrated
// template database, created before the file's tests and dropped after them. Files never see each
// other's rows, workers or statistics, and can run side by side. The URL is in TEST_FILE_DATABASE_URL
// (read it with testDatabaseUrl() from test/helpers.ts).

const template = inject('postgresTemplate');
const own = await createOwnDatabase(inject('postgresServer'), template, template);
process.env.TEST_FILE_DATABASE_URL = own.url;
afterAll(() => own.drop());
