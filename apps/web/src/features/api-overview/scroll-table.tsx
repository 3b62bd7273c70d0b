import type { ReactNode } from "react";

type Cell = string | number;

/**
 * A table that scrolls inside the text column on a phone instead of widening the page: an
 * optional row of column names, then a row per entry of `rows` (the columns listed in `code`
 * set as code, `widths` giving a column a class), or the rows given as children.
 */
export function ScrollTable({
  head,
  rows,
  code = [],
  widths = [],
  children,
}: {
  head?: readonly string[];
  rows?: readonly (readonly Cell[])[];
  code?: readonly number[];
  widths?: readonly (string | undefined)[];
  children?: ReactNode;
}) {
  return (
    <div className="overflow-x-auto">
      <table>
        {head ? (
          <thead>
            <tr>
              {head.map((name) => (
                <th key={name} scope="col">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
        ) : null}
        <tbody>
          {rows
            ? rows.map((row) => (
                <tr key={row.join(" ")}>
                  {row.map((cell, column) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a cell is its column, never reordered
                    <td key={column} className={widths[column]}>
                      {code.includes(column) ? <code>{cell}</code> : cell}
                    </td>
                  ))}
                </tr>
              ))
            : children}
        </tbody>
      </table>
    </div>
  );
}
