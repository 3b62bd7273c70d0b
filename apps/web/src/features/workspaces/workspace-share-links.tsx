import type { TWorkspace, TWorkspaceShareLink } from "@cohort/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { formatWhen } from "../../lib/format/dates";
import { RevokeShareButton } from "../share/revoke-share-button";
import { listWorkspaceShares } from "../share/share-api";
import { TeamPanelList } from "./team-panel-read";

const STATUS_LABELS: Record<TWorkspaceShareLink["status"], string> = {
  active: "Active",
  expired: "Expired",
  revoked: "Revoked",
  creator_left: "Off: its creator left",
};

const sharesKey = (workspaceId: string) => ["workspaces", workspaceId, "shares"] as const;

function ShareRow({ link, workspaceId }: { link: TWorkspaceShareLink; workspaceId: string }) {
  const queryClient = useQueryClient();
  const views = `${link.view_count} ${link.view_count === 1 ? "view" : "views"}`;
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm"
      data-testid="workspace-share"
      data-status={link.status}
    >
      <div className="min-w-0">
        <p className="truncate font-medium text-ink-900">
          {link.session_title}
          {link.run_id ? " · one run" : ""}
        </p>
        <p className="text-xs text-ink-500">
          {STATUS_LABELS[link.status]} · {views} · made {formatWhen(link.created_at)}
          {link.created_by ? ` by ${link.created_by}` : ""}
        </p>
      </div>
      {link.status === "active" ? (
        <RevokeShareButton
          shareId={link.id}
          onRevoked={() => queryClient.invalidateQueries({ queryKey: sharesKey(workspaceId) })}
        />
      ) : null}
    </li>
  );
}

/**
 * Every share link of the team's sessions in one list, for owners and admins (decision
 * 051): who made it, whether it still opens, and a Revoke for the ones that do.
 */
export function WorkspaceShareLinks({ workspace }: { workspace: TWorkspace }) {
  const shares = useQuery({
    queryKey: sharesKey(workspace.id),
    queryFn: ({ signal }) => listWorkspaceShares(workspace.id, signal),
  });
  return (
    <section aria-labelledby="workspace-shares-title" className="grid gap-2">
      <h3 id="workspace-shares-title" className="text-sm font-semibold text-ink-900">
        Share links
      </h3>
      <TeamPanelList
        read={shares}
        what="the share links"
        items={(data) => data.shares}
        empty="No session of this workspace has been shared."
      >
        {(links) => (
          <ul
            className="max-h-80 divide-y divide-ink-100 overflow-y-auto"
            data-testid="workspace-shares"
          >
            {links.map((link) => (
              <ShareRow key={link.id} link={link} workspaceId={workspace.id} />
            ))}
          </ul>
        )}
      </TeamPanelList>
    </section>
  );
}
