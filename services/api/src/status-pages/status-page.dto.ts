import { IsBoolean, IsString, Length, Matches, MaxLength } from 'class-validator';
import { MonitorIdList } from '../http/monitor-id-list';
import { Nullable, Optional } from '../http/validators';
import { IsSectionList, type PageSectionInput } from './page-sections';
import { ManagedByField, ResourceKey, type ManagedBy } from '../http/resource-key';

/** 3-64 lowercase letters, digits and hyphens; also a CHECK of the status_pages table. */
export const SLUG_PATTERN = /^[a-z0-9-]{3,64}$/;
export const SLUG_MAX = 64;
export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 2000;
export const MAX_PAGE_MONITORS = 100;
/**
 * A DNS host name of at least two labels, lower case: letters, digits and inner hyphens, each
 * label 1-63 characters, 253 in all; a last label of letters (so never an IP address).
 */
export const DOMAIN_PATTERN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const DOMAIN_MAX = 253;

/**
 * The writable fields of a status page, all optional: PUT and PATCH take this as it is; create
 * requires slug, title and monitor_ids (status-pages.routes.ts). `monitor_ids` is the page's
 * order, so a repeated id is refused rather than guessed at. `sections` groups some of them
 * under names (page-sections.ts).
 */
export class StatusPageFieldsDto {
  @Optional()
  @IsString()
  @Length(3, SLUG_MAX)
  @Matches(SLUG_PATTERN, { message: 'slug must be 3-64 lowercase letters, digits or hyphens' })
  slug?: string;
  @Optional() @IsString() @Length(1, TITLE_MAX) title?: string;
  @Nullable() @IsString() @MaxLength(DESCRIPTION_MAX) description?: string | null;
  @Optional() @MonitorIdList(MAX_PAGE_MONITORS) monitor_ids?: number[];
  @Optional() @IsBoolean() published?: boolean;
  /** Open a draft incident when one of the page's monitors goes offline (docs/status-pages.md, "Draft incidents"). */
  @Optional() @IsBoolean() auto_incidents?: boolean;
  @Optional() @IsSectionList() sections?: PageSectionInput[];
  @Nullable()
  @IsString()
  @MaxLength(DOMAIN_MAX)
  @Matches(DOMAIN_PATTERN, { message: 'custom_domain must be a lower-case host name such as status.example.com' })
  custom_domain?: string | null;
  /** Its name in a configuration file (docs/config-as-code.md). */
  @ResourceKey() key?: string | null;
  @ManagedByField() managed_by?: ManagedBy | null;
}

export const REQUIRED_ON_CREATE = ['slug', 'title', 'monitor_ids'] as const;
