/**
 * A credits statement that writes another module's rows in the same statement (decision 019,
 * "statements per call"). The credits module exports the parts of its statement (`RESERVE_CTES`,
 * `SETTLE_OPEN_CTES`, …) and what it selects; the other module composes them with its own
 * parts and hands the text back here to run, so the credits rules (the conditional update, the
 * rare paths, publishing the change) stay in this module. Its own parameters come first
 * (`$1`…`$N`, N exported beside the parts); `params` continue from `$N+1`.
 */
export interface ComposedStatement {
  /** `WITH <credits' parts>, <the other module's parts> SELECT <credits' result>, …`. */
  text: string;
  params: readonly unknown[];
}
