import { type Static, Type } from '@sinclair/typebox';
import { ListQuery } from '../reads/index.js';
import { Body, CreatedAt, Described, Envelope, ListEnvelope, Name, Nullable, PLACE_FIELDS, RecordId, UpdatedAt } from '../shared/index.js';

/** At most this many locations per store (CONTRACT §13): the 101st is a 400. */
export const MAX_LOCATIONS = 100;

/** The address of a location: the fields of an Address that say where a place is; those not given are left out. */
export const LocationAddress = Type.Partial(Type.Object(PLACE_FIELDS, { additionalProperties: false }), {
  title: 'LocationAddress',
  description: 'where the location is: the place fields of an Address (house, street, city, …)',
});

export const Location = Type.Object(
  {
    id: RecordId,
    name: Type.String({ description: 'unique in the store, case-insensitively, as "Berlin warehouse"' }),
    code: Nullable(Type.String({ description: 'a short code of your own, unique in the store, as "BER-1"; null: none' })),
    address: Nullable(LocationAddress),
    active: Type.Boolean({ description: 'whether its stock counts in the stock and totalStock products show' }),
    isDefault: Type.Boolean({ description: 'the default location: where stock written through products goes, and checkouts take from' }),
    createdAt: CreatedAt,
    updatedAt: UpdatedAt,
  },
  { title: 'Location', description: 'a place the store keeps stock: a warehouse, a shop, a 3PL' },
);
export type Location = Static<typeof Location>;

const LocationName = Described(Name(255), 'unique in the store, case-insensitively, 1 to 255 characters');
const Code = Nullable(Described(Name(64), 'unique in the store, 1 to 64 characters; null: none'));
const Active = Described(Type.Boolean(), 'default true; the default location cannot be made inactive');

export const CreateLocationBody = Body({
  name: LocationName,
  code: Type.Optional(Code),
  address: Type.Optional(Nullable(LocationAddress)),
  active: Type.Optional(Active),
  isDefault: Type.Optional(Described(Type.Boolean(), 'true: it becomes the default location (the old one stays, not default)')),
});
export const UpdateLocationBody = Body({
  name: Type.Optional(LocationName),
  code: Type.Optional(Code),
  address: Type.Optional(Nullable(LocationAddress)),
  active: Type.Optional(Active),
  isDefault: Type.Optional(
    Described(Type.Boolean(), 'true moves the default here; false is refused on the default (move it by making another the default)'),
  ),
});
export type CreateLocationInput = Static<typeof CreateLocationBody>;
export type UpdateLocationInput = Static<typeof UpdateLocationBody>;

export const LOCATION_SORTS = ['createdAt', 'name'] as const;
export const LocationListQuery = ListQuery(LOCATION_SORTS, {});
export type LocationListQuery = Static<typeof LocationListQuery>;

export const LocationEnvelope = Envelope(Location);
export const LocationListEnvelope = ListEnvelope(Location);
