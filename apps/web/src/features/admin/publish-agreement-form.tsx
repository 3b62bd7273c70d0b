import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { failureMessage } from "../../auth/account-api";
import { Button } from "../../components/button";
import { Card } from "../../components/card";
import { CheckboxField } from "../../components/checkbox-field";
import { Field, FormMessage, TextAreaField } from "../../components/form";
import { toast } from "../../components/toast/toast-store";
import { adminKeys, publishAgreement } from "./admin-api";

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Publishes a new agreement version; every user must accept it before going on. */
export function PublishAgreementForm() {
  const [version, setVersion] = useState("");
  const [effectiveDate, setEffectiveDate] = useState(today);
  const [content, setContent] = useState("");
  const [allowDecline, setAllowDecline] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setPublishing(true);
    try {
      const { agreement } = await publishAgreement({
        version,
        effectiveDate,
        content,
        allowDecline,
      });
      toast({ title: `Agreement version ${agreement.version} published`, variant: "success" });
      setVersion("");
      setContent("");
      setAllowDecline(false);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    } catch (cause) {
      const message = failureMessage(cause, "Could not publish the agreement. Please try again.");
      setError(message);
      toast({ title: message, variant: "error" });
    } finally {
      setPublishing(false);
    }
  };

  return (
    <Card className="p-5 sm:p-6">
      <h2 id="publish-title" className="text-base font-semibold text-ink-950">
        Publish agreement version
      </h2>
      <p className="mt-1 text-sm text-ink-600">
        The new version becomes current at once, and every user has to accept it again.
      </p>
      <form aria-labelledby="publish-title" onSubmit={onSubmit} className="mt-5 grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Version"
            required
            maxLength={40}
            placeholder="1.1"
            value={version}
            onChange={(e) => setVersion(e.target.value)}
          />
          <Field
            label="Effective date"
            type="date"
            required
            value={effectiveDate}
            onChange={(e) => setEffectiveDate(e.target.value)}
          />
        </div>
        <TextAreaField
          label="Content"
          required
          rows={12}
          hint="Markdown: # headings, paragraphs, - lists, **bold**, [links](https://…)."
          value={content}
          onChange={(e) => setContent(e.target.value)}
        />
        <CheckboxField
          label="Allow users to decline this version"
          checked={allowDecline}
          onChange={setAllowDecline}
        />
        <FormMessage>{error}</FormMessage>
        <div>
          <Button type="submit" disabled={publishing}>
            {publishing ? "Loading..." : "Publish version"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
