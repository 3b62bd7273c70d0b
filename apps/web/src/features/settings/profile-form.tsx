import type { TUserProfile } from "@cohort/contracts";
import { type FormEvent, useState } from "react";
import { failureMessage, updateProfile } from "../../auth/account-api";
import { setSignedIn } from "../../auth/auth-store";
import { Button } from "../../components/button";
import { Field, FormMessage } from "../../components/form";
import { SectionCard } from "../../components/section-header";
import { toast } from "../../components/toast/toast-store";

export const PROFILE_SAVED_MESSAGE = "Profile updated";

/** First name, last name, display name and photo URL (PUT /api/users/profile). */
export function ProfileForm({ user }: { user: TUserProfile }) {
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [displayName, setDisplayName] = useState(user.displayName);
  const [photoURL, setPhotoURL] = useState(user.photoURL ?? "");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setSaving(true);
    try {
      const { user: updated } = await updateProfile({
        firstName: firstName.trim(),
        lastName: lastName.trim(),
        displayName: displayName.trim(),
        photoURL: photoURL.trim() === "" ? null : photoURL.trim(),
      });
      setSignedIn(updated);
      toast({ title: PROFILE_SAVED_MESSAGE, variant: "success" });
    } catch (cause) {
      const message = failureMessage(cause, "Could not save your profile. Please try again.");
      setError(message);
      toast({ title: message, variant: "error" });
    } finally {
      setSaving(false);
    }
  };

  return (
    <SectionCard
      id="profile-title"
      title="Profile"
      lead={
        <>
          How you appear in Cohort. Your email address is{" "}
          <span className="font-medium text-ink-800">{user.email}</span>.
        </>
      }
    >
      <form aria-labelledby="profile-title" onSubmit={onSubmit} className="mt-5 grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="First name"
            autoComplete="given-name"
            required
            maxLength={100}
            value={firstName}
            onChange={(e) => setFirstName(e.target.value)}
          />
          <Field
            label="Last name"
            autoComplete="family-name"
            required
            maxLength={100}
            value={lastName}
            onChange={(e) => setLastName(e.target.value)}
          />
        </div>
        <Field
          label="Display name"
          autoComplete="nickname"
          required
          maxLength={100}
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
        />
        <Field
          label="Photo URL"
          type="url"
          inputMode="url"
          placeholder="https://…"
          maxLength={2048}
          hint="A link to a square picture (http or https). Leave empty for none."
          value={photoURL}
          onChange={(e) => setPhotoURL(e.target.value)}
        />
        <FormMessage>{error}</FormMessage>
        <div>
          <Button type="submit" disabled={saving}>
            {saving ? "Loading..." : "Save profile"}
          </Button>
        </div>
      </form>
    </SectionCard>
  );
}
