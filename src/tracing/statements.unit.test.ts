import { describe, expect, it } from 'vitest';
import { literal } from '../db/index.js';
import { maskedText, summarize } from './statements.js';

describe('statement spans', () => {
  it('are named by the operation and the first table', () => {
    expect(summarize('select "id" from "admins" where "store_id" = $1')).toBe('SELECT admins');
    expect(summarize('/* sf:with-commit */ INSERT INTO events (store_id) VALUES ($1)')).toBe('INSERT events');
    expect(summarize('\n    UPDATE jobs SET processed = $1')).toBe('UPDATE jobs');
    expect(summarize('commit')).toBe('COMMIT');
  });

  it('never carry a value written into the text, however it is quoted', () => {
    const secrets = ["it's a secret", 'back\\slash secret', "E'secret"];
    const text = `INSERT INTO events (store_id, data) VALUES (${secrets.map(literal).join('), (')})`;
    const masked = maskedText(text);
    for (const secret of ['secret', 'slash']) expect(masked).not.toContain(secret);
    expect(masked).toBe("INSERT INTO events (store_id, data) VALUES ('?'), ('?'), ('?')");
    // placeholders are kept as they are
    expect(maskedText('select * from products where store_id = $1')).toBe('select * from products where store_id = $1');
  });

  it('are cut at 2,000 characters', () => {
    expect(maskedText(`select ${'x, '.repeat(2000)}1`)).toHaveLength(2001);
  });
});
