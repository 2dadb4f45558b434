// @vitest-environment happy-dom
// The desks' shared pieces in a DOM: a table named for screen readers with its column headers, and a query's error and
// loading lines.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable } from '../../../renderer/src/ui/DataTable';
import { QueryState } from '../../../renderer/src/ui/QueryState';
import { renderIn } from '../support/render';

describe('DataTable', () => {
  it('is a table named by its label, with one column header each, and its rows', () => {
    renderIn(
      'en-US',
      <DataTable
        label="Payments found"
        columns={[
          'Date',
          <span key="open" className="visually-hidden">
            Open
          </span>,
        ]}
      >
        <tr>
          <td>2026-11-23</td>
          <td>
            <button type="button">Open</button>
          </td>
        </tr>
      </DataTable>,
    );
    const table = screen.getByRole('table', { name: 'Payments found' });
    expect(table.className).toBe('table');
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Date', 'Open']);
    expect(screen.getAllByRole('row')).toHaveLength(2);
  });

  it('is named by a heading when given its id, and keeps its own class', () => {
    renderIn(
      'en-US',
      <>
        <h2 id="audit-title">Audit trail</h2>
        <DataTable labelledBy="audit-title" className="audit" columns={['#']}>
          <tr>
            <td>1</td>
          </tr>
        </DataTable>
      </>,
    );
    expect(screen.getByRole('table', { name: 'Audit trail' }).className).toBe('table audit');
  });
});

describe('QueryState', () => {
  it('says nothing when there is no error and nothing is read', () => {
    const { container } = renderIn('en-US', <QueryState error={undefined} />);
    expect(container.innerHTML).toBe('');
  });

  it('shows the error as an alert and the loading line in the desk’s language', () => {
    renderIn('es-MX', <QueryState error="El servicio no respondió." loading />);
    expect(screen.getByRole('alert').textContent).toBe('El servicio no respondió.');
    expect(screen.getByText('Cargando…').getAttribute('aria-busy')).toBe('true');
  });
});
