import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { TOKEN_SCOPES, type TokenScope } from '@uptime/db';

export class CreateTokenDto {
  @IsString() @Length(1, 100) name!: string;
  @IsOptional() @IsInt() @Min(1) @Max(3650) expires_in_days?: number;
  /** `read` tokens are refused every unsafe method (docs/organizations.md, "Scoped tokens"). */
  @IsOptional() @IsIn(TOKEN_SCOPES) scope?: TokenScope;
  /** The organization the token acts in; the caller's current one when left out. */
  @IsOptional() @IsInt() @Min(1) @Max(2147483647) organization_id?: number;
}
