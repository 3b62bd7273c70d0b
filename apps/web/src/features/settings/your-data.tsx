import {
  ACCOUNT_DATA_ROUTES,
  ACCOUNT_DELETE_WORD,
  type TDeleteAccountRequest,
  type TDeleteAccountResponse,
} from "@cohort/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { failureMessage } from "../../auth/account-api";
import { setSignedOut } from "../../auth/auth-store";
import { Button, ButtonAnchor } from "../../components/button";
import { DialogFrame } from "../../components/dialog-frame";
import { Field, type FieldProps, FormMessage } from "../../components/form";
import { SectionCard } from "../../components/section-header";
import { toast } from "../../components/toast/toast-store";
import { api } from "../../lib/api/api";
import { buildApiUrl } from "../../lib/api/client";
import { IDENTITIES_QUERY_KEY, listIdentities } from "./linked-accounts";

/**
 * Settings → "Your data": the download of everything stored about the account (a zip the
 * browser saves straight to disk, named by the server) and the deletion of the account.
 */
export function YourData({ email }: { email: string }) {
  const [deleting, setDeleting] = useState(false);
  return (
    <SectionCard
      id="your-data-heading"
      title="Your data"
      lead="Download a copy of everything Cohort stores about you: your profile, the sessions you created, CoChat conversations, your documents with their original files, memories, workspaces and your credit ledger, as one zip file. A few downloads an hour."
    >
      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        <ButtonAnchor variant="outline" href={buildApiUrl(ACCOUNT_DATA_ROUTES.export)} download>
          Download my data
        </ButtonAnchor>
        <Button
          variant="outline"
          className="border-red-300 text-red-700 hover:border-red-400 hover:bg-red-50"
          onClick={() => setDeleting(true)}
        >
          Delete account…
        </Button>
      </div>
      {deleting ? <DeleteAccountDialog email={email} onClose={() => setDeleting(false)} /> : null}
    </SectionCard>
  );
}

function DeleteAccountDialog({ email, onClose }: { email: string; onClose(): void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const identities = useQuery({
    queryKey: IDENTITIES_QUERY_KEY,
    queryFn: ({ signal }) => listIdentities(signal),
  });
  const hasPassword = identities.data?.hasPassword ?? true;
  const [secret, setSecret] = useState("");
  const [word, setWord] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const ready = word === ACCOUNT_DELETE_WORD && secret.trim() !== "" && !identities.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setPending(true);
    setError(null);
    const body: TDeleteAccountRequest = {
      confirm: ACCOUNT_DELETE_WORD,
      ...(hasPassword ? { password: secret } : { email: secret.trim() }),
    };
    try {
      const answer = await api.delete<TDeleteAccountResponse>(ACCOUNT_DATA_ROUTES.account, {
        body,
      });
      // The server cleared the sign-in cookie and rotated the CSRF secret.
      api.clearCsrfToken();
      setSignedOut();
      queryClient.clear();
      toast({ title: answer.message, variant: "success" });
      navigate("/", { replace: true });
    } catch (failure) {
      setError(failureMessage(failure, "Your account could not be deleted. Please try again."));
      setPending(false);
    }
  };

  // What proves it is you: the password, or for an account without one its email address.
  const secretField: FieldProps = hasPassword
    ? { label: "Your password", type: "password", autoComplete: "current-password" }
    : {
        label: "Your email address",
        hint: `You sign in with Google: type ${email} to confirm.`,
        type: "email",
        autoComplete: "off",
      };

  return (
    <DialogFrame
      open
      onOpenChange={(open) => {
        if (!open && !pending) onClose();
      }}
      title="Delete your account?"
      description="This cannot be undone. Download your data first if you want a copy."
      testId="delete-account-dialog"
    >
      <form onSubmit={submit} className="grid gap-4 px-5 py-5 sm:px-6" noValidate>
        <div className="grid gap-2 text-sm text-ink-700">
          <p className="font-semibold text-ink-950">Erased at once:</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>your profile, sign-in methods and settings; you are signed out everywhere;</li>
            <li>
              the sessions you created (in team workspaces too), their runs, your CoChat
              conversations and memories;
            </li>
            <li>your documents and their stored files;</li>
            <li>
              your personal workspace and any team where you are the only member, with their
              credits: remaining credits are forfeited, not refunded.
            </li>
          </ul>
          <p className="font-semibold text-ink-950">Kept, anonymised:</p>
          <p>
            the credit ledger and usage records (amounts, models, dates), which accounting law
            requires us to keep; nothing in them names you any more.
          </p>
        </div>
        <Field
          {...secretField}
          value={secret}
          onChange={(event) => setSecret(event.target.value)}
          required
        />
        <Field
          label={`Type ${ACCOUNT_DELETE_WORD} to confirm`}
          autoComplete="off"
          spellCheck={false}
          value={word}
          onChange={(event) => setWord(event.target.value)}
          required
        />
        <FormMessage>{error}</FormMessage>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button
            type="submit"
            disabled={!ready || pending}
            className="bg-red-600 text-white hover:bg-red-700 focus-visible:outline-red-600 disabled:bg-red-200 disabled:text-red-900"
          >
            {pending ? "Deleting…" : "Delete my account"}
          </Button>
        </div>
      </form>
    </DialogFrame>
  );
}
