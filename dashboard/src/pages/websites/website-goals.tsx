import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useSession } from '../../auth/session';
import { ConfirmBody } from '../../components/confirm-body';
import { DataTable, type Column } from '../../components/data-table';
import { EmptyState, QueryState } from '../../components/data-state';
import { DateTime } from '../../components/date-time';
import { Dialog } from '../../components/dialog';
import { graphql } from '../../gql';
import type { WebsiteGoalsQuery } from '../../gql/graphql';
import { AddGoalForm } from './add-goal-form';

const WebsiteGoalsDocument = graphql(`
  query WebsiteGoals($id: ID!) {
    website(id: $id) {
      id
      goals {
        id
        name
        kind
        pagePath
        eventName
        currency
        createdAt
      }
    }
  }
`);

const DeleteGoalDocument = graphql(`
  mutation DeleteGoal($websiteId: ID!, $id: ID!) {
    deleteGoal(websiteId: $websiteId, id: $id)
  }
`);

const LIST_CONTEXT = { additionalTypenames: ['Goal'] };

type Goal = NonNullable<WebsiteGoalsQuery['website']>['goals'][number];

const COLUMNS: Column<Goal>[] = [
  { header: 'Name', cell: (goal) => goal.name },
  {
    header: 'Counts',
    cell: (goal) =>
      goal.kind === 'PAGE' ? (
        <>
          Visits to <code>{goal.pagePath}</code>
        </>
      ) : (
        <>
          Event <code>{goal.eventName}</code>
        </>
      ),
  },
  { header: 'Revenue', cell: (goal) => goal.currency ?? '—' },
  { header: 'Created', cell: (goal) => <DateTime value={goal.createdAt} dateOnly /> },
];

/**
 * The website's goals, what analytics counts as conversions; owners and admins of its
 * organization add and delete them (the server decides; the page only spares others the form).
 */
export function WebsiteGoals({
  websiteId,
  organizationId,
}: {
  websiteId: string;
  organizationId: string;
}) {
  const { memberships } = useSession();
  const role = memberships.find((m) => m.organization.id === organizationId)?.role;
  const canManage = role === 'OWNER' || role === 'ADMIN';
  const [result, reexecute] = useQuery({
    query: WebsiteGoalsDocument,
    variables: { id: websiteId },
    context: LIST_CONTEXT,
  });
  const [deleting, setDeleting] = useState<Goal | null>(null);

  const columns: Column<Goal>[] = canManage
    ? [
        ...COLUMNS,
        {
          header: 'Actions',
          cell: (goal) => (
            <button type="button" className="button" onClick={() => setDeleting(goal)}>
              Delete<span className="visually-hidden"> goal {goal.name}</span>
            </button>
          ),
        },
      ]
    : COLUMNS;

  return (
    <section aria-labelledby="goals-heading">
      <h2 id="goals-heading">Goals</h2>
      <p>
        A goal is a page visit or a custom event that counts as a conversion. A website has at most
        100.
      </p>
      <QueryState result={result} what="the goals" reexecute={reexecute}>
        {(data) =>
          !data.website || data.website.goals.length === 0 ? (
            <EmptyState>
              <p>No goals yet.</p>
            </EmptyState>
          ) : (
            <DataTable
              caption="Goals, oldest first"
              captionHidden
              columns={columns}
              rows={data.website.goals}
              rowKey={(goal) => goal.id}
            />
          )
        }
      </QueryState>
      {canManage ? (
        <div className="panel">
          <h3>Add a goal</h3>
          <AddGoalForm websiteId={websiteId} />
        </div>
      ) : (
        <p className="hint">Owners and admins of the organization add and delete goals.</p>
      )}
      <Dialog open={deleting !== null} title="Delete goal" onClose={() => setDeleting(null)}>
        {deleting && (
          <DeleteGoal websiteId={websiteId} goal={deleting} onDone={() => setDeleting(null)} />
        )}
      </Dialog>
    </section>
  );
}

function DeleteGoal({
  websiteId,
  goal,
  onDone,
}: {
  websiteId: string;
  goal: Goal;
  onDone: () => void;
}) {
  const [deletion, deleteGoal] = useMutation(DeleteGoalDocument);

  async function confirm() {
    const result = await deleteGoal({ websiteId, id: goal.id }, { additionalTypenames: ['Goal'] });
    if (result.data?.deleteGoal) onDone();
  }

  return (
    <ConfirmBody
      message={`Delete the goal “${goal.name}”? This cannot be undone.`}
      confirmLabel="Delete goal"
      busy={deletion.fetching}
      error={deletion.error}
      onConfirm={() => void confirm()}
      onCancel={onDone}
    />
  );
}
