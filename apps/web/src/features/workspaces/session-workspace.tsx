import type { TSession } from "@cohort/contracts";
import { Badge } from "../../components/badge";
import { useChargedWorkspace } from "./charged-workspace";
import { useCurrentWorkspace } from "./current-workspace";

/**
 * Which workspace a session belongs to, in its header (decision 054): its runs are paid from
 * that workspace's wallet, whatever workspace is in view. When they differ, the header says
 * whose credits pay.
 */
export function SessionWorkspace({ session }: { session: Pick<TSession, "workspace_id"> }) {
  const { workspaces } = useCurrentWorkspace();
  const { team, elsewhere } = useChargedWorkspace();
  const own = workspaces.find((w) => w.id === session.workspace_id);
  if (!own) return null;
  const personal = own.kind === "personal";
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5" data-testid="session-workspace">
      <Badge tone={personal ? "neutral" : "brand"}>
        {personal ? "Personal workspace" : `Team · ${own.name}`}
      </Badge>
      {elsewhere ? (
        <span className="text-ink-600">
          {team
            ? `Runs are paid from ${team.name}'s pool.`
            : "Runs are paid from your own credits."}
        </span>
      ) : null}
    </span>
  );
}
