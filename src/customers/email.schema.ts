import { Type } from '@sinclair/typebox';
import { EMAIL } from '../stores/stores.service.js';

/** The service's one email format (the admins' rule), for customers, addresses and orders. */
export const Email = Type.String({ maxLength: 320, pattern: EMAIL.source, description: 'an email address' });
