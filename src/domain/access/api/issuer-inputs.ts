import { ArrayMaxSize, ArrayMinSize, IsIn, IsOptional, Length, Matches } from 'class-validator';
import { Field, InputType } from 'type-graphql';

@InputType({ description: 'An OpenID Connect provider to trust for signing in to the tenant.' })
export class AddTrustedIssuerInput {
  @Field(() => String, {
    description:
      "The issuer URL, exactly as its tokens' `iss` says (https; http only on a loopback address outside production).",
  })
  @Length(1, 2048)
  issuer!: string;

  @Field(() => [String], {
    description: 'Accepted `aud` values (at least one): a token must name one of them.',
  })
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @Length(1, 500, { each: true })
  audiences!: string[];

  @Field(() => String, {
    nullable: true,
    description: 'The claim that names the user: `email` (default) or `sub`.',
  })
  @IsOptional()
  @IsIn(['email', 'sub'], { message: 'userClaim must be email or sub' })
  userClaim?: string;

  @Field(() => [String], {
    nullable: true,
    description: 'E-mail domains whose users may sign in (any when absent).',
  })
  @IsOptional()
  @ArrayMaxSize(100)
  @Matches(/^[a-z0-9.-]+\.[a-z]{2,}$/i, { each: true, message: 'each allowed domain must be a domain name' })
  allowedDomains?: string[];

  @Field(() => String, {
    nullable: true,
    description: 'A tenant role: unknown users are created on first sign-in holding it (off when absent).',
  })
  @IsOptional()
  @Length(1, 200)
  createUsersWithRole?: string;
}
