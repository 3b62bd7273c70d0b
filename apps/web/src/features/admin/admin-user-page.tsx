import {
  SUBSCRIPTION_TIERS,
  type TAdminUserDetail,
  TIER_LABELS,
  type TSubscriptionTier,
} from "@cohort/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { failureMessage } from "../../auth/account-api";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { Card } from "../../components/card";
import { DataTable } from "../../components/data-table";
import { Field, FormMessage, inputClasses } from "../../components/form";
import { toast } from "../../components/toast/toast-store";
import { formatDateTime } from "../../lib/format/dates";
import { describeUserAgent } from "../../lib/format/describe-user-agent";
import {
  formatCount,
  formatCreditDelta,
  formatCredits,
  formatNumber,
} from "../../lib/format/numbers";
import { usePendingAction } from "../../lib/ui/use-pending-action";
import { ledgerReasonLabel } from "../billing/billing-format";
import { useModelNames } from "../billing/use-model-names";
import {
  adjustCredits,
  adminKeys,
  deleteUser,
  fetchUser,
  markEmailVerified,
  revokeSignIns,
  sendPasswordReset,
  sendVerificationEmail,
  setDisabled,
  setTier,
} from "./admin-api";
import { AdminPage, QueryState } from "./admin-page";
import { AuditTable } from "./audit-section";

/** One user: profile, balance, ledger, sign-ins, and the actions an admin can take. */
export function AdminUserPage() {
  const { userId = "" } = useParams();
  const { data, isPending, isError } = useQuery({
    queryKey: adminKeys.user(userId),
    queryFn: ({ signal }) => fetchUser(userId, signal),
  });
  const back = (
    <Link to="/admin/users" className="text-sm font-medium text-brand-700 hover:underline">
      ← All users
    </Link>
  );
  if (isPending || isError) {
    return (
      <AdminPage title="User" actions={back}>
        <QueryState isError={isError} label="this user" />
      </AdminPage>
    );
  }
  const { user } = data;
  return (
    <AdminPage title={user.email} description={user.displayName} actions={back}>
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="grid content-start gap-3 p-5">
          <h2 className="text-base font-semibold text-ink-950">Profile</h2>
          <dl
            className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm"
            data-testid="user-profile"
          >
            <dt className="text-ink-600">State</dt>
            <dd>
              {user.disabled_at ? (
                <Badge tone="danger">Disabled {formatDateTime(user.disabled_at)}</Badge>
              ) : (
                <Badge tone="success">Active</Badge>
              )}
            </dd>
            <dt className="text-ink-600">Role</dt>
            <dd>{user.role}</dd>
            <dt className="text-ink-600">Tier</dt>
            <dd>{TIER_LABELS[user.subscription_tier]}</dd>
            <dt className="text-ink-600">Balance</dt>
            <dd className="tabular-nums" data-testid="user-balance">
              {formatCredits(user.credits_remaining)}
            </dd>
            <dt className="text-ink-600">Email</dt>
            <dd>{user.emailVerified ? "Verified" : "Not verified"}</dd>
            <dt className="text-ink-600">Joined</dt>
            <dd>{formatDateTime(user.created_at)}</dd>
            <dt className="text-ink-600">Chat sessions</dt>
            <dd className="tabular-nums">{data.sessions_count}</dd>
            <dt className="text-ink-600">Sign-ins</dt>
            <dd className="tabular-nums">{data.sign_ins.length} active</dd>
          </dl>
        </Card>
        <AdjustCreditsCard userId={user.id} />
        <AccountCard detail={data} />
      </div>
      <SupportCard detail={data} />
      <Card className="p-5">
        <h2 className="text-base font-semibold text-ink-950">Credit ledger</h2>
        <p className="mt-1 text-sm text-ink-600">
          The newest {data.ledger.length} of {data.ledger_total} entries.
        </p>
        <LedgerRows detail={data} />
      </Card>
      <Card className="p-5">
        <h2 className="text-base font-semibold text-ink-950">Active sign-ins</h2>
        {data.sign_ins.length === 0 ? (
          <p className="mt-3 text-sm text-ink-600">No active sign-ins.</p>
        ) : (
          <ul className="mt-3 divide-y divide-ink-100 text-sm">
            {data.sign_ins.map((signIn) => (
              <li key={signIn.id} className="py-2">
                <span className="font-medium text-ink-900" data-testid="sign-in-device">
                  {describeUserAgent(signIn.user_agent)}
                </span>
                <span className="block text-xs text-ink-500">
                  {signIn.ip ?? "unknown address"} · last used {formatDateTime(signIn.last_used_at)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card className="p-5">
        <h2 className="text-base font-semibold text-ink-950">Admin actions on this account</h2>
        <AuditTable query={{ targetId: user.id, pageSize: 10 }} showTarget={false} />
      </Card>
    </AdminPage>
  );
}

function LedgerRows({ detail }: { detail: TAdminUserDetail }) {
  const modelName = useModelNames();
  if (detail.ledger.length === 0) {
    return <p className="mt-3 text-sm text-ink-600">No credit movements yet.</p>;
  }
  return (
    <DataTable
      testId="admin-ledger"
      caption="Credit ledger, newest first"
      columns={[
        "Date",
        "Reason",
        "Description",
        { label: "Change", end: true },
        { label: "Balance", end: true },
      ]}
    >
      {detail.ledger.map((entry) => (
        <tr key={entry.id}>
          <td className="py-2 pr-3 text-ink-600">{formatDateTime(entry.created_at)}</td>
          <td className="py-2 pr-3">{ledgerReasonLabel(entry.reason)}</td>
          <td className="py-2 pr-3 text-ink-700">
            {/* A charge's description is the model's id: people read its name. */}
            {entry.reason === "usage" ? modelName(entry.description) : entry.description}
          </td>
          <td className="py-2 pr-3 text-right tabular-nums">{formatCreditDelta(entry.delta)}</td>
          <td className="py-2 text-right tabular-nums">{formatNumber(entry.balance_after)}</td>
        </tr>
      ))}
    </DataTable>
  );
}

const actionFailed = (cause: unknown) =>
  failureMessage(cause, "The action failed. Please try again.");

/** Refreshes every admin query after an action: the user, the lists and the audit log. */
function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: adminKeys.all });
}

function AdjustCreditsCard({ userId }: { userId: string }) {
  const refresh = useRefresh();
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const { pending, error, run } = usePendingAction((cause) =>
    failureMessage(cause, "Could not adjust the credits. Please try again."),
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(async () => {
      const result = await adjustCredits(userId, {
        delta: Number(amount),
        reason,
        // A double-click or a retried request never adjusts twice.
        idempotencyKey: crypto.randomUUID(),
      });
      toast({
        title: `Balance is now ${formatCredits(result.balance)}`,
        variant: "success",
      });
      setAmount("");
      setReason("");
      await refresh();
    });
  };
  return (
    <Card className="p-5">
      <h2 id="adjust-title" className="text-base font-semibold text-ink-950">
        Adjust credits
      </h2>
      <p className="mt-1 text-sm text-ink-600">
        A positive amount grants, a negative one deducts. The reason shows in the user's ledger.
      </p>
      <form aria-labelledby="adjust-title" onSubmit={onSubmit} className="mt-4 grid gap-3">
        <Field
          label="Amount"
          type="number"
          step="0.01"
          required
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <Field
          label="Reason"
          required
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <FormMessage>{error}</FormMessage>
        <div>
          <Button type="submit" disabled={pending}>
            {pending ? "Loading..." : "Adjust credits"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function AccountCard({ detail }: { detail: TAdminUserDetail }) {
  const { user } = detail;
  const refresh = useRefresh();
  const [tier, setTierValue] = useState<TSubscriptionTier>(user.subscription_tier);
  const [reason, setReason] = useState("");
  const action = usePendingAction(actionFailed);
  const { pending, error } = action;

  const run = (act: () => Promise<string>) =>
    action.run(async () => {
      toast({ title: await act(), variant: "success" });
      await refresh();
    });
  const onToggle = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const disable = !user.disabled_at;
    void run(async () => {
      await setDisabled(user.id, { disabled: disable, reason });
      setReason("");
      return disable ? "Account disabled; its sign-ins ended" : "Account enabled";
    });
  };

  return (
    <Card className="grid content-start gap-5 p-5">
      <div className="grid gap-2">
        <h2 className="text-base font-semibold text-ink-950">Tier</h2>
        <div className="flex gap-2">
          <select
            aria-label="Tier"
            className={inputClasses}
            value={tier}
            onChange={(e) => setTierValue(e.target.value as TSubscriptionTier)}
          >
            {SUBSCRIPTION_TIERS.map((value) => (
              <option key={value} value={value}>
                {TIER_LABELS[value]}
              </option>
            ))}
          </select>
          <Button
            variant="outline"
            disabled={pending || tier === user.subscription_tier}
            onClick={() =>
              void run(async () => {
                await setTier(user.id, tier);
                return `Tier set to ${TIER_LABELS[tier]}`;
              })
            }
          >
            Save
          </Button>
        </div>
      </div>
      <form onSubmit={onToggle} className="grid gap-2" aria-labelledby="access-title">
        <h2 id="access-title" className="text-base font-semibold text-ink-950">
          Access
        </h2>
        <p className="text-sm text-ink-600">
          {user.disabled_at
            ? "The account is disabled: nobody can sign in to it."
            : "Disabling ends every sign-in at once and refuses new ones."}
        </p>
        <Field
          label={user.disabled_at ? "Reason for enabling" : "Reason for disabling"}
          required
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <div className="flex flex-wrap gap-2">
          <Button
            type="submit"
            variant={user.disabled_at ? "primary" : "outline"}
            disabled={pending}
          >
            {user.disabled_at ? "Enable account" : "Disable account"}
          </Button>
          <Button
            variant="ghost"
            disabled={pending || detail.sign_ins.length === 0}
            onClick={() =>
              void run(async () => {
                const { revoked } = await revokeSignIns(user.id);
                return `${formatCount(revoked, "sign-in")} ended`;
              })
            }
          >
            Revoke sign-ins
          </Button>
        </div>
      </form>
      <FormMessage>{error}</FormMessage>
    </Card>
  );
}

/**
 * Account support (decision 056): the emails the user would get from the login screen, the
 * address vouched for, and deleting the account as its holder would, each audited.
 */
function SupportCard({ detail }: { detail: TAdminUserDetail }) {
  const { user } = detail;
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [verifyReason, setVerifyReason] = useState("");
  const [deleteReason, setDeleteReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const action = usePendingAction(actionFailed);
  const { pending, error } = action;

  const run = (act: () => Promise<{ message: string }>, after?: () => Promise<void>) =>
    action.run(async () => {
      const { message } = await act();
      toast({ title: message, variant: "success" });
      await (after ?? refresh)();
    });
  const onMarkVerified = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(
      () => markEmailVerified(user.id, verifyReason),
      async () => {
        setVerifyReason("");
        await refresh();
      },
    );
  };
  const onDelete = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!confirming) {
      setConfirming(true);
      return;
    }
    void run(
      () => deleteUser(user.id, deleteReason),
      // The user is gone: their page's query is dropped, not asked again (it would be a 404).
      async () => {
        await navigate("/admin/users");
        queryClient.removeQueries({ queryKey: adminKeys.user(user.id) });
        await queryClient.invalidateQueries({ queryKey: ["admin", "users"] });
        await queryClient.invalidateQueries({ queryKey: ["admin", "audit"] });
      },
    );
  };

  return (
    <Card className="grid gap-5 p-5 lg:grid-cols-3" data-testid="account-support">
      <div className="grid content-start gap-2">
        <h2 className="text-base font-semibold text-ink-950">Email address</h2>
        <p className="text-sm text-ink-600">
          {user.emailVerified
            ? `${user.email} is verified.`
            : `${user.email} is not verified yet: the welcome credits wait for it.`}
        </p>
        {user.emailVerified ? null : (
          <>
            <div>
              <Button
                variant="outline"
                disabled={pending}
                onClick={() => void run(() => sendVerificationEmail(user.id))}
              >
                Resend verification email
              </Button>
            </div>
            <form onSubmit={onMarkVerified} className="grid gap-2" aria-label="Mark email verified">
              <Field
                label="Reason for marking it verified"
                required
                maxLength={500}
                value={verifyReason}
                onChange={(e) => setVerifyReason(e.target.value)}
              />
              <div>
                <Button type="submit" variant="outline" disabled={pending}>
                  Mark email verified
                </Button>
              </div>
            </form>
          </>
        )}
      </div>
      <div className="grid content-start gap-2">
        <h2 className="text-base font-semibold text-ink-950">Password</h2>
        <p className="text-sm text-ink-600">
          Sends the reset link the login screen sends: it works once, for an hour.
        </p>
        <div>
          <Button
            variant="outline"
            disabled={pending}
            onClick={() => void run(() => sendPasswordReset(user.id))}
          >
            Send password reset
          </Button>
        </div>
      </div>
      <form onSubmit={onDelete} className="grid content-start gap-2" aria-label="Delete account">
        <h2 className="text-base font-semibold text-ink-950">Delete account</h2>
        <p className="text-sm text-ink-600">
          As if the user deleted it: sign-ins end, runs stop, sessions, documents and personal
          workspace go, the balance is forfeited. It cannot be undone.
        </p>
        <Field
          label="Reason for deleting"
          required
          maxLength={500}
          value={deleteReason}
          onChange={(e) => {
            setDeleteReason(e.target.value);
            setConfirming(false);
          }}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant={confirming ? "primary" : "outline"} disabled={pending}>
            {confirming ? `Yes, delete ${user.email}` : "Delete account"}
          </Button>
          {confirming ? (
            <Button variant="ghost" disabled={pending} onClick={() => setConfirming(false)}>
              Keep the account
            </Button>
          ) : null}
        </div>
      </form>
      <FormMessage>{error}</FormMessage>
    </Card>
  );
}
