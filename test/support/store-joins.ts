import { parse } from 'libpg-query';

/**
 * "No statement joins across stores" (docs/scaling.md, Citus): for a statement that names two or more
 * store-owned relations, every one of them must have its store column tied to the others' by equalities
 * the statement requires (`a.store_id = b.store_id`, both `= $1`, an INSERT's store_id taken from the
 * row it selects), so all of its rows belong to one store and, distributed by store_id, to one shard.
 *
 * Read with PostgreSQL's own parser (libpg-query). Equalities count only where they constrain: in a
 * WHERE, a JOIN's ON, ON CONFLICT's WHERE, along AND; not under OR, NOT or CASE. A subquery in FROM or a
 * CTE passes its `store_id` output column on to whoever joins it. Anything not understood leaves a
 * relation untied, so the check errs towards failing.
 */

// biome-ignore lint/suspicious/noExplicitAny: libpg-query's JSON tree, walked generically
type Node = any;

interface Relation {
  key: string;
  /** a store-owned table (or a derived relation exposing store_id) */
  owned: boolean;
  table: string;
}

interface Scope {
  parent: Scope | null;
  relations: Map<string, Relation>;
  /** relations of enclosing scopes this one's expressions name (a correlated subquery joins them) */
  outer: Set<Relation>;
}

class Classes {
  private readonly parent = new Map<string, string>();
  find(key: string): string {
    let root = key;
    while (this.parent.has(root)) root = this.parent.get(root) as string;
    return root;
  }
  join(a: string, b: string): void {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra !== rb) this.parent.set(ra, rb);
  }
}

/** Which tables are store-owned, and the column naming their store (`store_id`, `id` for `stores`). */
export type StoreColumns = ReadonlyMap<string, string>;

class Checker {
  private readonly classes = new Classes();
  private readonly scopes: Scope[] = [];
  private next = 0;

  constructor(
    private readonly storeColumns: StoreColumns,
    private readonly ctes: Map<string, { query: Node; scope: Scope }>,
    private readonly parameters: readonly unknown[],
  ) {}

  /**
   * Relations are joined when they are combined into rows: in one FROM (joins, comma, LATERAL), or a
   * correlated subquery with the outer relations it names. Uncorrelated subqueries read on their own.
   */
  untied(statement: Node): string[] {
    this.statement(statement, null);
    const problems: string[] = [];
    for (const scope of this.scopes) {
      const joined = [...scope.relations.values(), ...scope.outer].filter((relation) => relation.owned);
      const roots = new Map<string, string[]>();
      for (const relation of joined) {
        const root = this.classes.find(relation.key);
        roots.set(root, [...(roots.get(root) ?? []), relation.table]);
      }
      if (roots.size > 1) problems.push([...roots.values()].map((tables) => tables.join('+')).join(' | '));
    }
    return problems;
  }

  /** Walks a statement in a new scope; returns the scope (for derived relations' output columns). */
  private statement(node: Node, parent: Scope | null): Scope {
    const scope: Scope = { parent, relations: new Map(), outer: new Set() };
    this.scopes.push(scope);
    const [kind, body] = Object.entries(node)[0] as [string, Node];
    // each CTE walked once, where it is defined (a data-modifying one may never be read)
    for (const cte of body.withClause?.ctes ?? []) {
      const query = cte.CommonTableExpr.ctequery;
      this.ctes.set(cte.CommonTableExpr.ctename, { query, scope: this.statement(query, scope) });
    }
    if (kind === 'SelectStmt' && body.op && body.op !== 'SETOP_NONE') {
      this.statement({ SelectStmt: body.larg }, parent);
      this.statement({ SelectStmt: body.rarg }, parent);
      return scope;
    }
    // the target of INSERT, UPDATE, DELETE (a bare RangeVar, not wrapped like FROM items)
    if (body.relation) this.from({ RangeVar: body.relation }, scope);
    for (const item of [...(body.fromClause ?? []), ...(body.usingClause ?? [])]) this.from(item, scope);
    this.constraint(body.whereClause, scope);
    this.constraint(body.havingClause, scope);
    this.constraint(body.onConflictClause?.whereClause, scope);
    for (const part of [body.targetList, body.returningList, body.onConflictClause?.targetList, body.valuesLists])
      this.expressions(part, scope);
    if (kind === 'InsertStmt' && body.selectStmt) this.insert(body, scope);
    return scope;
  }

  /** A FROM item: a table, a join (its ON constrains), a subquery, a function. */
  private from(item: Node, scope: Scope): void {
    if (item.RangeVar) {
      const name = item.RangeVar.relname as string;
      const alias = item.RangeVar.alias?.aliasname ?? name;
      const cte = this.ctes.get(name);
      if (cte) {
        this.derived(alias, cte.query, scope, cte.scope);
        return;
      }
      const owned = this.storeColumns.has(name);
      const relation = { key: `r${this.next++}`, owned, table: name };
      scope.relations.set(alias, relation);
      return;
    }
    if (item.JoinExpr) {
      this.from(item.JoinExpr.larg, scope);
      this.from(item.JoinExpr.rarg, scope);
      this.constraint(item.JoinExpr.quals, scope);
      return;
    }
    if (item.RangeSubselect) {
      const { alias, subquery } = item.RangeSubselect;
      this.derived(alias?.aliasname ?? '', subquery, scope, this.statement(subquery, scope));
      return;
    }
    // a function in FROM (unnest, …): no store; its arguments may hold subqueries
    this.expressions(item, scope);
  }

  /** A subquery or CTE joined as `alias`: its store_id output is its own relation's. */
  private derived(alias: string, query: Node, scope: Scope, inner: Scope): void {
    const relation = { key: `d${this.next++}`, owned: false, table: alias };
    scope.relations.set(alias, relation);
    const body = Object.values(query)[0] as Node;
    for (const target of body.targetList ?? []) {
      const { name, val } = target.ResTarget;
      const column = name ?? this.columnName(val);
      if (column === 'store_id' || (column === '*' && inner.relations.size === 1)) {
        const only = [...inner.relations.entries()][0];
        const source = column === '*' ? (only?.[1].owned ? only[1].key : null) : this.valueKey(val, inner);
        if (source) {
          relation.owned = true;
          this.classes.join(relation.key, source);
        }
      }
    }
  }

  /** INSERT … SELECT: the target's store column is the selected row's column at its position. */
  private insert(body: Node, scope: Scope): void {
    const target = scope.relations.get(body.relation.alias?.aliasname ?? body.relation.relname);
    const column = this.storeColumns.get(body.relation.relname);
    const position = (body.cols ?? []).findIndex((col: Node) => col.ResTarget.name === column);
    const select = body.selectStmt.SelectStmt;
    const selected = this.statement(body.selectStmt, scope);
    if (!target) return;
    // the rows selected go into the target: joined with it
    selected.outer.add(target);
    if (position < 0) return;
    for (const row of select.valuesLists ?? []) {
      const key = this.valueKey(row.List.items[position], selected);
      if (key) this.classes.join(target.key, key);
    }
    const picked = select.targetList?.[position]?.ResTarget.val;
    const key = picked && this.valueKey(picked, selected);
    if (key) this.classes.join(target.key, key);
  }

  /** Equalities along AND tie what they compare; subqueries anywhere are walked in their own scope. */
  private constraint(node: Node, scope: Scope): void {
    if (!node) return;
    if (node.BoolExpr?.boolop === 'AND_EXPR') {
      for (const arg of node.BoolExpr.args) this.constraint(arg, scope);
      return;
    }
    const eq = node.A_Expr;
    if (eq && eq.kind === 'AEXPR_OP' && eq.name.length === 1 && eq.name[0].String.sval === '=') {
      const [left, right] = [this.valueKey(eq.lexpr, scope), this.valueKey(eq.rexpr, scope)];
      if (left && right) this.classes.join(left, right);
    }
    this.expressions(node, scope);
  }

  /** Any expression: only its subqueries matter here (each a statement of its own, seeing this scope). */
  private expressions(node: Node, scope: Scope): void {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) this.expressions(item, scope);
      return;
    }
    if (node.ColumnRef) {
      this.reference(node.ColumnRef, scope);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'SubLink') {
        this.statement((value as Node).subselect, scope);
        this.expressions((value as Node).testexpr, scope);
      } else if (key === 'SelectStmt' || key === 'InsertStmt' || key === 'UpdateStmt' || key === 'DeleteStmt') {
        this.statement({ [key]: value }, scope);
      } else this.expressions(value, scope);
    }
  }

  /** `alias.column` naming a relation of an enclosing scope: this scope is correlated with it. */
  private reference(ref: Node, scope: Scope): void {
    if (ref.fields.length < 2) return;
    const alias = ref.fields[0].String?.sval;
    if (scope.relations.has(alias)) return;
    for (let at = scope.parent; at; at = at.parent) {
      const relation = at.relations.get(alias);
      if (relation) return void scope.outer.add(relation);
    }
  }

  /** The class key of a value: a relation's store column, a parameter, a constant; null for anything else. */
  private valueKey(node: Node, scope: Scope): string | null {
    if (!node) return null;
    if (node.TypeCast) return this.valueKey(node.TypeCast.arg, scope);
    // Values as sent: a store id passed twice (as $1 and $4, or written in as a literal) is one store.
    if (node.ParamRef) {
      const value = this.parameters[node.ParamRef.number - 1];
      return typeof value === 'string' ? `value:${value}` : `$${node.ParamRef.number}`;
    }
    if (node.A_Const?.sval) return `value:${node.A_Const.sval.sval}`;
    if (node.A_Const) return `const:${JSON.stringify(node.A_Const)}`;
    if (!node.ColumnRef) return null;
    const fields = node.ColumnRef.fields.map((field: Node) => field.String?.sval ?? '*');
    if (fields.length === 2) return this.storeOf(fields[0], scope, fields[1]);
    if (fields.length === 1) return this.unqualified(fields[0], scope);
    return null;
  }

  /** `alias.column` when column is that relation's store column, looked up from this scope outwards. */
  private storeOf(alias: string, scope: Scope, column?: string): string | null {
    for (let at: Scope | null = scope; at; at = at.parent) {
      const relation = at.relations.get(alias);
      if (!relation) continue;
      const storeColumn = this.storeColumns.get(relation.table) ?? (relation.key.startsWith('d') ? 'store_id' : undefined);
      return column === undefined || column === storeColumn ? relation.key : null;
    }
    return null;
  }

  /** A bare column: the one relation of the nearest scope whose store column has that name. */
  private unqualified(column: string, scope: Scope): string | null {
    for (let at: Scope | null = scope; at; at = at.parent) {
      const matches = [...at.relations.entries()].filter(
        ([, relation]) => (this.storeColumns.get(relation.table) ?? (relation.owned ? 'store_id' : undefined)) === column,
      );
      if (matches.length === 1) return matches[0][1].key;
      if (matches.length > 1) return null;
    }
    return null;
  }

  private columnName(val: Node): string | null {
    const fields = val?.ColumnRef?.fields;
    if (!fields) return null;
    const last = fields[fields.length - 1];
    return last.A_Star ? '*' : last.String.sval;
  }
}

/**
 * Each join of store-owned relations in `text` that is not tied to one store, as `a+b | c` (the groups
 * that are tied among themselves); empty when there is none. `parameters` are the values sent with it,
 * when known: parameters of equal value are one value.
 */
export async function untiedRelations(text: string, storeColumns: StoreColumns, parameters: readonly unknown[] = []): Promise<string[]> {
  const tree = await parse(text);
  return (tree.stmts ?? []).flatMap(({ stmt }) => new Checker(storeColumns, new Map(), parameters).untied(stmt));
}
