CREATE TYPE "public"."object_owner_type" AS ENUM('note', 'chat_message', 'lab_order');--> statement-breakpoint
CREATE TYPE "public"."object_purpose" AS ENUM('patient-attachment', 'chat-attachment');--> statement-breakpoint
CREATE TABLE "multipart_parts" (
	"upload_id" uuid NOT NULL,
	"part_number" integer NOT NULL,
	"storage_key" uuid NOT NULL,
	"size" bigint NOT NULL,
	"etag" char(64) NOT NULL,
	CONSTRAINT "multipart_parts_upload_id_part_number_pk" PRIMARY KEY("upload_id","part_number"),
	CONSTRAINT "multipart_parts_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "multipart_uploads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"object_id" uuid NOT NULL,
	"uploader_id" uuid NOT NULL,
	"file_name" varchar(255),
	"declared_type" varchar(200),
	"created_at" timestamp with time zone NOT NULL,
	"touched_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "multipart_uploads_object_id_unique" UNIQUE("object_id")
);
--> statement-breakpoint
CREATE TABLE "object_uploads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"uploader_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stored_objects" (
	"id" uuid PRIMARY KEY NOT NULL,
	"storage_key" varchar(200) NOT NULL,
	"sha256" char(64) NOT NULL,
	"size" bigint NOT NULL,
	"declared_type" varchar(200),
	"content_type" varchar(100),
	"file_name" varchar(255),
	"uploader_id" uuid NOT NULL,
	"purpose" "object_purpose",
	"owner_type" "object_owner_type",
	"owner_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	CONSTRAINT "stored_objects_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
ALTER TABLE "multipart_parts" ADD CONSTRAINT "multipart_parts_upload_id_multipart_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."multipart_uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "multipart_uploads" ADD CONSTRAINT "multipart_uploads_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_uploads" ADD CONSTRAINT "object_uploads_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_objects" ADD CONSTRAINT "stored_objects_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "multipart_uploads_touched_idx" ON "multipart_uploads" USING btree ("touched_at");--> statement-breakpoint
CREATE INDEX "object_uploads_expires_idx" ON "object_uploads" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stored_objects_owner_idx" ON "stored_objects" USING btree ("owner_type","owner_id");--> statement-breakpoint
CREATE INDEX "stored_objects_unconfirmed_idx" ON "stored_objects" USING btree ("created_at") WHERE confirmed_at is null;