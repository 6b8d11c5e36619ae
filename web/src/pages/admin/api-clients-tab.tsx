import { Copy, KeyRound, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { z } from 'zod';
import {
  API_CLIENT_AUTH_METHODS,
  apiClientAuthMethodLabel,
  apiClientStanding,
  fhirScopeLabel,
  ZCreateApiClient,
  type TApiClient,
  type TCreateApiClient,
  type TCreatedApiClient,
} from '#domain/api-clients';
import type { TCurrentUser } from '#domain/auth';
import { formatClinicTime } from '#domain/clinic-time';
import { FHIR_CREATABLE, FHIR_RESOURCE_TYPES } from '#domain/fhir';
import { ROLE_LABELS } from '#domain/roles';
import { useApiClients, useCreateApiClient, useRevokeApiClient } from '../../api/api-clients/api-clients.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { useStaffDirectory } from '../../api/users/staff-directory.ts';
import { ApiClientStandingBadge } from '../../components/api-client-standing.tsx';
import { Choice } from '../../components/choice-field.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { DialogFooter } from '../../components/ui/dialog.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { LoadingBlock, Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { copyWithToast } from '../../lib/clipboard.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

const ALL_TYPES = 'system/*.read';
// Reading each type, and sending a lab's results (issue 54: a reference lab's system creates them).
const SCOPE_CHOICES = [ALL_TYPES, ...FHIR_RESOURCE_TYPES.map((type) => `system/${type}.read`), ...FHIR_CREATABLE.map((type) => `system/${type}.c`)].map(
  (value) => ({ value, label: fhirScopeLabel(value) }),
);

/**
 * Admin Panel → API Clients (issue 35; docs/decisions/fhir.md): software that reads the FHIR API
 * as a staff account, within the resource types it is given. The secret is shown once, when it
 * is created; revoking stops its tokens at once.
 */
export function ApiClientsTab(_props: { user: TCurrentUser }) {
  const clients = useApiClients();
  const { timeZone } = useClinicTimeZone();
  return (
    <section aria-labelledby="api-clients-title" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="api-clients-title" className="text-lg font-semibold text-slate-900">
            API clients
          </h2>
          <p className="max-w-2xl text-sm text-slate-600">
            Other software (a lab, a hospital, a patient app) reading records through the FHIR API at /fhir/R4. Each reads as the staff account you choose and
            sees only what that account sees, and every read is in the audit trail.
          </p>
        </div>
        <NewApiClientButton />
      </div>
      {clients.isPending || !timeZone ? (
        <LoadingBlock />
      ) : clients.isError ? (
        <ErrorState title="Could not load the API clients" error={clients.error} onRetry={() => void clients.refetch()} />
      ) : clients.data.length === 0 ? (
        <Card data-testid="api-clients-empty">
          <CardContent className="p-8 text-center">
            <p className="font-semibold text-slate-900">No API clients yet</p>
            <p className="mt-1 text-sm text-slate-600">Create one when another system needs to read records from this clinic.</p>
          </CardContent>
        </Card>
      ) : (
        <ul className="space-y-3">
          {clients.data.map((client) => (
            <ApiClientRow key={client.id} client={client} timeZone={timeZone} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ApiClientRow({ client, timeZone }: { client: TApiClient; timeZone: string }) {
  const revoke = useRevokeApiClient();
  const [confirming, setConfirming] = useState(false);
  const revoked = client.revokedAt !== null;
  const doRevoke = () =>
    revoke.mutate(client.id, {
      onSuccess: () => toast({ title: 'API client revoked', description: `${client.name} can no longer read records.`, variant: 'success' }),
      onError: (error) => reportMutationError(error, 'Could not revoke the client', { withReason: true }),
    });
  return (
    <li className="rounded-lg border bg-white p-4" data-testid="api-client" data-client-id={client.id}>
      {/* On a phone the button goes under the text, and the name wraps rather than being cut (issue 50). */}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-semibold text-slate-900">
            <KeyRound className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
            <span className="min-w-0 break-words" data-testid="api-client-name">
              {client.name}
            </span>
            <ApiClientStandingBadge client={client} />
          </p>
          <p className="mt-1 text-sm text-slate-700">
            Reads as {client.actingUser.name} ({ROLE_LABELS[client.actingUser.role]}
            {client.actingUser.isActive ? '' : ', deactivated'}) · {client.scopes.map(fhirScopeLabel).join(', ')}
          </p>
          {apiClientStanding(client) === 'waiting' && (
            <p className="mt-1 text-sm text-amber-900" data-testid="api-client-waiting">
              Takes no token until {client.actingUser.name} accepts it in Security (her profile menu).
            </p>
          )}
          {/* Each fact whole on its line: an id may break anywhere, a date never. */}
          <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-500" aria-label="About this client" data-testid="api-client-facts">
            <li className="min-w-0">
              Client id <span className="break-all font-mono">{client.id}</span>
            </li>
            <li className="whitespace-nowrap">Created {formatClinicTime(client.createdAt, timeZone)}</li>
            <li className="whitespace-nowrap">{client.lastUsedAt ? `Last token ${formatClinicTime(client.lastUsedAt, timeZone)}` : 'Never used'}</li>
            {client.revokedAt && <li className="whitespace-nowrap">Revoked {formatClinicTime(client.revokedAt, timeZone)}</li>}
            <li className="min-w-0" data-testid="api-client-auth">
              {client.authMethod === 'client_secret' ? (
                'Uses a secret'
              ) : client.jwksUrl ? (
                <>
                  Signs with the keys at <span className="break-all">{client.jwksUrl}</span>
                </>
              ) : (
                `Signs with key ${client.keyIds.join(', ')}`
              )}
            </li>
          </ul>
        </div>
        {!revoked &&
          (confirming ? (
            <div className="flex shrink-0 items-center gap-2">
              <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
                Keep
              </Button>
              <Button variant="destructive" size="sm" onClick={doRevoke} disabled={revoke.isPending}>
                {revoke.isPending && <Spinner className="size-4 text-white" />}
                Revoke now
              </Button>
            </div>
          ) : (
            <Button variant="outline" size="sm" className="self-start" onClick={() => setConfirming(true)}>
              Revoke<span className="sr-only"> {client.name}</span>
            </Button>
          ))}
      </div>
    </li>
  );
}

function NewApiClientButton() {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<TCreatedApiClient | null>(null);
  const close = () => {
    setOpen(false);
    setCreated(null);
  };
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="new-api-client">
        <Plus aria-hidden="true" />
        New API client
      </Button>
      <FormDialog
        open={open}
        onClose={close}
        headerClassName=""
        title="New API client"
        description={
          created
            ? `${created.name} is ready. Give its id and secret to whoever sets up the other system.`
            : 'It reads records as the staff account you choose, only the resource types you tick. Someone other than you must accept it before it works.'
        }
      >
        {created ? (
          <>
            <SecretPanel client={created} />
            <DialogFooter>
              <Button onClick={close}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <NewApiClientForm onCreated={setCreated} onCancel={close} />
        )}
      </FormDialog>
    </>
  );
}

/**
 * The form's fields: the request's, with a client's public keys as one text (a pasted JWK Set,
 * or the https URL it is published at) that becomes `jwks` or `jwksUrl` when sent.
 */
const ZNewClientFields = z
  .object({ name: z.string(), actingUserId: z.string(), scopes: z.array(z.string()), authMethod: z.enum(API_CLIENT_AUTH_METHODS), keys: z.string() })
  .transform(({ keys, ...fields }, ctx) => {
    const parsed = ZCreateApiClient.safeParse(fields.authMethod === 'private_key_jwt' ? { ...fields, ...keysFromText(keys) } : fields);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]);
      ctx.addIssue({ code: 'custom', path: [field === 'jwks' || field === 'jwksUrl' ? 'keys' : field], message: issue.message });
    }
    return z.NEVER;
  });
type TFields = z.input<typeof ZNewClientFields>;
const EMPTY: TFields = { name: '', actingUserId: '', scopes: [ALL_TYPES], authMethod: 'client_secret', keys: '' };
const FIELDS = ['name', 'actingUserId', 'scopes', 'authMethod', 'keys'] as const;
// The keys' own shape is checked in the browser first (the transform above); the server adds whether they import.
const KEY_PATHS = { jwks: 'keys', jwksUrl: 'keys' } as const;

/** A URL is where the keys are published; anything else is read as a JWK Set (or one JWK, put in a set). */
function keysFromText(text: string): Pick<TCreateApiClient, 'jwks' | 'jwksUrl'> | Record<string, unknown> {
  const trimmed = text.trim();
  if (/^https?:\/\//i.test(trimmed)) return { jwksUrl: trimmed };
  try {
    const value: unknown = JSON.parse(trimmed);
    const set = value && typeof value === 'object' && 'kty' in value ? { keys: [value] } : value;
    return { jwks: set };
  } catch {
    return { jwks: trimmed ? 'not JSON' : undefined };
  }
}

function NewApiClientForm({ onCreated, onCancel }: { onCreated: (client: TCreatedApiClient) => void; onCancel: () => void }) {
  const create = useCreateApiClient();
  const staff = useStaffDirectory({ status: 'active' });
  const form = useAppForm<TFields, TCreateApiClient>({ schema: ZNewClientFields, defaultValues: EMPTY, fields: FIELDS, serverPaths: KEY_PATHS });
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const byKey = watch('authMethod') === 'private_key_jwt';
  const onSubmit = form.onSubmit((values) =>
    create.mutate(values, {
      onSuccess: (client) => {
        const description = client.clientSecret ? 'Copy its secret now: it will not be shown again.' : 'Give its client id to the other system.';
        toast({ title: 'API client created', description, variant: 'success' });
        onCreated(client);
      },
      onError: (error) => form.failed(error, 'Could not create the API client', { withReason: true }),
    }),
  );
  const people = staff.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormField id="api-client-name" label="Name" required error={errors.name?.message}>
        {(control) => <Input {...control} autoComplete="off" placeholder="e.g. City Hospital interface" {...register('name')} />}
      </FormField>
      <FormField id="api-client-user" label="Reads as" required error={errors.actingUserId?.message}>
        {(control) => (
          <select {...control} className={SELECT_CLASS} disabled={staff.isPending} {...register('actingUserId')}>
            <option value="">{staff.isPending ? 'Loading staff…' : 'Choose a staff account'}</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {[person.firstName, person.lastName].filter(Boolean).join(' ')} ({ROLE_LABELS[person.role]})
              </option>
            ))}
          </select>
        )}
      </FormField>
      <fieldset className="space-y-2" aria-describedby={errors.scopes ? 'api-client-scopes-error' : undefined}>
        <legend className="text-sm font-medium text-slate-900">
          May read
          <span className="ml-0.5 text-red-700" aria-hidden="true">
            *
          </span>
        </legend>
        <div className="grid gap-1.5 sm:grid-cols-2">
          {SCOPE_CHOICES.map((choice) => (
            <label key={choice.value} className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" value={choice.value} className="size-4 accent-blue-700" {...register('scopes')} />
              {choice.label}
            </label>
          ))}
        </div>
        {errors.scopes && (
          <p id="api-client-scopes-error" className="text-sm text-red-700">
            {errors.scopes.message ?? errors.scopes.root?.message}
          </p>
        )}
      </fieldset>
      <Choice
        id="api-client-auth"
        label="Proves itself with"
        options={API_CLIENT_AUTH_METHODS}
        labels={apiClientAuthMethodLabel}
        error={errors.authMethod?.message}
        {...register('authMethod')}
      />
      {byKey && (
        <FormField
          id="api-client-keys"
          label="Public keys"
          required
          error={errors.keys?.message}
          hint="Paste its JWK Set (RS384 or ES384 public keys), or the https URL where it publishes them. It signs each token request with its private key, which never leaves it."
        >
          {(control) => (
            <Textarea
              {...control}
              rows={4}
              className="font-mono text-xs"
              spellCheck={false}
              placeholder='{"keys": [ … ]} or https://…/jwks.json'
              {...register('keys')}
            />
          )}
        </FormField>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <Spinner className="size-4" />}
          Create client
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The new client's id and secret, shown once: the admin copies them into the other system. */
function SecretPanel({ client }: { client: TCreatedApiClient }) {
  const id = useId();
  const copy = (value: string, what: string) => copyWithToast(value, `${what} copied`, 'Select it and copy it yourself.');
  return (
    <div className="space-y-3 rounded-md border border-blue-200 bg-blue-50 p-3" data-testid="api-client-secret">
      {[{ label: 'Client id', value: client.id }, ...(client.clientSecret ? [{ label: 'Client secret', value: client.clientSecret }] : [])].map((field) => (
        <div key={field.label} className="space-y-1">
          <Label htmlFor={`${id}-${field.label}`}>{field.label}</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input id={`${id}-${field.label}`} readOnly value={field.value} onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
            <Button type="button" variant="outline" onClick={() => void copy(field.value, field.label)}>
              <Copy aria-hidden="true" />
              Copy<span className="sr-only"> {field.label}</span>
            </Button>
          </div>
        </div>
      ))}
      <p className="text-sm text-slate-700">
        {client.clientSecret
          ? "The secret will not be shown again. The other system trades it for an hour's token at /api/oauth/token (client credentials)"
          : "The other system trades an assertion signed with its key for an hour's token at /api/oauth/token (SMART Backend Services)"}
        {client.acceptedAt ? '.' : `, once ${client.actingUser.name} accepts it in Security.`}
      </p>
    </div>
  );
}
