import type { TWebVitalsP75 } from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../../components/data-table";
import { formatNumber } from "../../lib/format/numbers";
import { adminKeys, fetchAnalytics } from "./admin-api";
import { AdminRowHeader, formatMilliseconds, QueryState } from "./admin-page";

/** Web vitals at the 75th percentile per route, from the analytics the web app reports. */
export function WebVitalsTable({ vitals }: { vitals?: readonly TWebVitalsP75[] }) {
  const { data, isPending, isError } = useQuery({
    queryKey: adminKeys.analytics,
    queryFn: ({ signal }) => fetchAnalytics(signal),
    enabled: vitals === undefined,
  });
  const rows = vitals ?? data?.webVitals;
  if (!rows) return <QueryState isError={isError && !isPending} label="web vitals" />;
  if (rows.length === 0) return <p className="mt-3 text-sm text-ink-600">No measurements yet.</p>;
  return (
    <DataTable
      testId="web-vitals"
      caption="Web vitals p75 per route"
      columns={["Route", "Samples", "LCP", "INP", "FID", "CLS", "TTFB", "FCP"]}
      bodyClassName="divide-y divide-ink-100 tabular-nums"
    >
      {rows.map((row) => (
        <tr key={row.pagePath}>
          <AdminRowHeader>{row.pagePath}</AdminRowHeader>
          <td className="py-2 pr-3">{row.samples}</td>
          <td className="py-2 pr-3">{formatMilliseconds(row.lcp)}</td>
          <td className="py-2 pr-3">{formatMilliseconds(row.inp)}</td>
          <td className="py-2 pr-3">{formatMilliseconds(row.fid)}</td>
          <td className="py-2 pr-3">{row.cls === null ? "—" : formatNumber(row.cls, 3)}</td>
          <td className="py-2 pr-3">{formatMilliseconds(row.ttfb)}</td>
          <td className="py-2 pr-3">{formatMilliseconds(row.fcp)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
